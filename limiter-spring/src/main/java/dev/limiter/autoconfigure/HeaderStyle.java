package dev.limiter.autoconfigure;

/** Which rate-limit header fields to write. */
public enum HeaderStyle {

	/** X-RateLimit-Limit, -Remaining, -Reset and -Window for the binding window. */
	X_RATELIMIT,
	/** RateLimit-Policy and RateLimit of draft-ietf-httpapi-ratelimit-headers. */
	IETF,
	/** Both sets. */
	BOTH;

	public boolean xRateLimit() {
		return this != IETF;
	}

	public boolean ietf() {
		return this != X_RATELIMIT;
	}

}
