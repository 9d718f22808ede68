package dev.limiter.autoconfigure;

/** What a budget does while the store cannot answer. */
public enum StoreFailureMode {

	/** Decide with the in-process fallback and mark the decision degraded. */
	OPEN,
	/** Refuse with 503 and Retry-After until the store answers again. */
	CLOSED

}
