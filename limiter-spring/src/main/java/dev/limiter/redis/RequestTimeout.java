package dev.limiter.redis;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;

/**
 * One timeout per request over all its Redis calls ({@link RequestStoreTime}): each wait
 * gets what the request's earlier waits left, and books what it took. A wait that runs
 * out, is interrupted or finds the call failed throws a {@link RateLimitStoreException},
 * which the breaker counts like any store failure.
 */
final class RequestTimeout {

	private final Duration timeout;

	private final long timeoutNanos;

	RequestTimeout(Duration timeout) {
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
	}

	Duration timeout() {
		return timeout;
	}

	/** Waits for {@code future} within what the request has left of its timeout. */
	<T> T await(Future<T> future) {
		long start = System.nanoTime();
		try {
			return awaitUntil(future, requestDeadline(start));
		}
		finally {
			RequestStoreTime.spend(System.nanoTime() - start);
		}
	}

	/**
	 * The end of this call's wait: one timeout per request, so a call gets what earlier
	 * calls of the same request left. A request that has used it all fails at once, and
	 * the breaker counts that like any timeout: a store slower than the timeout per
	 * request degrades even when each call alone is faster.
	 */
	private long requestDeadline(long start) {
		long left = timeoutNanos - RequestStoreTime.spentNanos();
		if (left <= 0) {
			throw new RateLimitStoreException(
					"Redis store: this request already waited " + timeout.toMillis() + "ms for it");
		}
		return start + left;
	}

	/** Waits for {@code future} until {@code deadline} ({@link System#nanoTime()}). */
	<T> T awaitUntil(Future<T> future, long deadline) {
		try {
			return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			future.cancel(false);
			throw new RateLimitStoreException("Redis store did not answer within " + timeout.toMillis() + "ms", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RateLimitStoreException("interrupted while waiting for the Redis store", ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
			if (cause instanceof CompletionException && cause.getCause() != null) {
				cause = cause.getCause();
			}
			if (cause instanceof RateLimitStoreException storeFailure) {
				throw storeFailure;
			}
			throw new RateLimitStoreException("Redis store failed: " + cause.getMessage(), cause);
		}
	}

}
