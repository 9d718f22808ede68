package dev.limiter.core;

/** Who is deciding right now. */
public enum StoreMode {

	/** The configured store answers; its counters are the truth. */
	AUTHORITATIVE,

	/**
	 * The store cannot answer; an in-process fallback decides, exact for this instance
	 * only.
	 */
	DEGRADED;

	/** Lower-case name for tags, logs and health details. */
	public String tag() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}
