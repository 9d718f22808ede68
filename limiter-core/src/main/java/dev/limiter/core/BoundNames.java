package dev.limiter.core;

import java.util.regex.Pattern;

/**
 * Names of bounds are echoed into headers, meters and Redis keys, so they are kept to a
 * safe alphabet.
 */
public final class BoundNames {

	/** The name under which the concurrency bound is reported. */
	public static final String CONCURRENCY = "concurrency";

	private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_-]{1,32}");

	private BoundNames() {
	}

	static boolean isValid(String windowName) {
		return SAFE.matcher(windowName).matches() && !CONCURRENCY.equals(windowName);
	}

	/**
	 * Whether {@code name} may be used as a budget name: the same alphabet, up to 64
	 * characters.
	 */
	public static boolean isValidBudgetName(String name) {
		return name != null && name.matches("[A-Za-z0-9_-]{1,64}");
	}

}
