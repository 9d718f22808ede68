package dev.limiter.autoconfigure;

/** Whether refusals are enforced. */
public enum Mode {

	/** A refused request gets the 429 (or 503) and never reaches the handler. */
	ENFORCE,
	/**
	 * Decide, count, log and meter, but let refused requests through with
	 * X-RateLimit-Shadow: refused.
	 */
	SHADOW

}
