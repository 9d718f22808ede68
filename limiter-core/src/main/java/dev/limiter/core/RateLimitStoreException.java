package dev.limiter.core;

/** A store could not answer: it failed, timed out, or is known to be failing. */
public class RateLimitStoreException extends RuntimeException {

	public RateLimitStoreException(String message) {
		super(message);
	}

	public RateLimitStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
