package dev.limiter.web;

import java.util.ArrayList;
import java.util.List;

/**
 * The one home of the headers the limiter defines: each one's name and meaning, as
 * {@code docs/http-contract.md} lists them (its table of headers on admitted responses,
 * and {@code Retry-After} in its table of a refusal;
 * {@code RateLimitHeaderDocumentedTests} holds the page and this type equal). The
 * response writer, the guard, the exposed CORS headers and the OpenAPI document all name
 * a header through here. The IETF fields' parameters follow
 * draft-ietf-httpapi-ratelimit-headers-11, written by {@link #policyItem} and
 * {@link #limitItem}.
 */
public enum RateLimitHeader {

	/** Seconds to wait before a refused bound has room again. */
	RETRY_AFTER("Retry-After", false,
			"Seconds to wait before the refused bound has room again (whole seconds, at least 1)"),

	/** The IETF field of the binding bound (or every window, with units). */
	RATE_LIMIT("RateLimit", true,
			"The binding bound's remaining quota and the seconds until more is made available "
					+ "(draft-ietf-httpapi-ratelimit-headers), such as \"minute\";r=599;t=42"),

	/** The IETF field of every bound of the budget. */
	RATE_LIMIT_POLICY("RateLimit-Policy", true,
			"Every bound of the budget (draft-ietf-httpapi-ratelimit-headers), such as \"minute\";q=600;w=60"),

	/** The binding window's limit. */
	LIMIT("X-RateLimit-Limit", true, "The binding window's limit"),

	/** What is left in the binding window. */
	REMAINING("X-RateLimit-Remaining", true, "Requests left in the binding window (the one with the fewest left)"),

	/** When the binding window resets. */
	RESET("X-RateLimit-Reset", true, "When the binding window resets, in Unix seconds"),

	/** The binding window's length. */
	WINDOW("X-RateLimit-Window", true, "The binding window's length in seconds"),

	/** The decision was taken by the in-process fallback. */
	DEGRADED("X-RateLimit-Degraded", true,
			"true when the in-process fallback decided because the store cannot answer; absent otherwise"),

	/** A refusal let through by shadow mode. */
	SHADOW("X-RateLimit-Shadow", true, "refused when shadow mode let a refused request through; absent otherwise");

	/** The value of {@link #DEGRADED} when it is written. */
	public static final String DEGRADED_VALUE = "true";

	/** The value of {@link #SHADOW} when it is written. */
	public static final String SHADOW_VALUE = "refused";

	/** The draft's quota unit of the concurrency bound's policy. */
	public static final String CONCURRENT_REQUESTS = "concurrent-requests";

	private final String headerName;

	private final boolean onAdmitted;

	private final String meaning;

	RateLimitHeader(String headerName, boolean onAdmitted, String meaning) {
		this.headerName = headerName;
		this.onAdmitted = onAdmitted;
		this.meaning = meaning;
	}

	/** The header's name on the wire. */
	public String headerName() {
		return this.headerName;
	}

	/** Whether an admitted response may carry it (else only a refusal). */
	public boolean onAdmitted() {
		return this.onAdmitted;
	}

	/** One line: what the header says. */
	public String meaning() {
		return this.meaning;
	}

	/** Every header's name, in declaration order. */
	public static List<String> names() {
		List<String> names = new ArrayList<>();
		for (RateLimitHeader header : values()) {
			names.add(header.headerName);
		}
		return List.copyOf(names);
	}

	/**
	 * One item of {@code RateLimit-Policy}: the quota {@code q}, a quota unit {@code qu}
	 * only when it is not requests (the draft's default), the window {@code w} in whole
	 * seconds when there is one (the concurrency bound has none).
	 * @param unit the quota unit, {@code null} for requests
	 * @param windowSeconds the window in seconds, or a negative number for none
	 */
	public static String policyItem(String name, long quota, String unit, long windowSeconds) {
		return "\"" + name + "\";q=" + quota + ((unit != null) ? ";qu=\"" + unit + "\"" : "")
				+ ((windowSeconds >= 0) ? ";w=" + windowSeconds : "");
	}

	/**
	 * One item of {@code RateLimit}: the remaining quota {@code r} and the seconds
	 * {@code t} until more is made available.
	 */
	public static String limitItem(String name, long remaining, long seconds) {
		return "\"" + name + "\";r=" + remaining + ";t=" + seconds;
	}

}
