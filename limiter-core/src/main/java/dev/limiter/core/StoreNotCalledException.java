package dev.limiter.core;

/**
 * A guard in front of the store (a circuit breaker) refused the call without asking the
 * store. Its cause, when there is one, is the store's last real failure, so that whoever
 * reports the outage names the store's error rather than the guard.
 */
public class StoreNotCalledException extends RateLimitStoreException {

	public StoreNotCalledException(String message, Throwable lastStoreFailure) {
		super(message, lastStoreFailure);
	}

}
