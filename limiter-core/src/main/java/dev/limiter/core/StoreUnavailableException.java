package dev.limiter.core;

/**
 * The store could not answer and the budget asked to fail closed
 * ({@code on-store-failure: closed}): the request is refused as unavailable rather than
 * decided by the fallback.
 */
public class StoreUnavailableException extends RateLimitStoreException {

	private final String budget;

	private final long retryAfterMillis;

	public StoreUnavailableException(String budget, long retryAfterMillis, Throwable cause) {
		super("rate limit store unavailable for budget '" + budget + "'", cause);
		this.budget = budget;
		this.retryAfterMillis = retryAfterMillis;
	}

	public String budget() {
		return budget;
	}

	/** A hint for {@code Retry-After}: how long until the store is tried again. */
	public long retryAfterMillis() {
		return retryAfterMillis;
	}

	/** {@link #retryAfterMillis()} in whole seconds, rounded up, at least 1. */
	public long retryAfterSeconds() {
		return Seconds.atLeastOne(retryAfterMillis);
	}

}
