package dev.limiter.spring;

import java.util.Locale;

/** What the limiter did with one request. */
public enum RateLimitOutcome {

	/** Counted and admitted. */
	ALLOWED,

	/** Refused: the handler was not called. */
	REFUSED,

	/** Would have been refused, but its budget is in shadow mode: admitted and marked. */
	SHADOW_REFUSED,

	/** Not counted: the route is exempt. */
	EXEMPT;

	/**
	 * Lower-case, hyphenated name for tags and JSON: {@code allowed},
	 * {@code shadow-refused}.
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
