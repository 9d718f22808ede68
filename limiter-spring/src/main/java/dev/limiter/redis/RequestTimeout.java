package dev.limiter.redis;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;

import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;

/**
 * One timeout per request over all its Redis calls ({@link RequestStoreTime}): each wait
 * gets what the request's earlier waits left, and books what it took. A wait that runs
 * out, is interrupted or finds the call failed throws a {@link RateLimitStoreException},
 * which the breaker counts like any store failure.
 */
final class RequestTimeout {

	/**
	 * Ends the calls nobody waits for at their deadline ({@link #within}): one daemon
	 * thread for every store in the JVM, busy only for the moment it fails a stage.
	 */
	private static final ScheduledExecutorService TIMER = timer();

	private final Duration timeout;

	private final long timeoutNanos;

	RequestTimeout(Duration timeout) {
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
	}

	Duration timeout() {
		return timeout;
	}

	/**
	 * Whether the request has time left for a call: the calling thread's own (a request's
	 * store time moves only on its thread), so {@link #onThisThread} then finds it too.
	 */
	boolean timeLeft() {
		return timeoutNanos - RequestStoreTime.spentNanos() > 0;
	}

	/**
	 * The end ({@link System#nanoTime()}) of a call sent now without waiting: one timeout
	 * from now, or what the request open on this thread has left of it (possibly in the
	 * past).
	 */
	long deadlineOfCallSentNow() {
		return System.nanoTime() + timeoutNanos - RequestStoreTime.spentNanos();
	}

	/**
	 * {@code sent}'s answer without waiting for it: completes with it, or exceptionally
	 * with a {@link RateLimitStoreException} when {@code sent} fails or has not completed
	 * by {@code deadlineNanos} ({@link System#nanoTime()}). The deadline is kept by the
	 * limiter's own timer ({@link #TIMER}): no thread waits, and no other user of the
	 * JDK's shared delay scheduler can hold it back. A timeout completes {@code sent}
	 * itself exceptionally (pass a {@link CompletableFuture#copy copy} to keep it), on
	 * the timer's thread, where what follows the stage then runs.
	 */
	<T> CompletableFuture<T> within(CompletableFuture<T> sent, long deadlineNanos) {
		if (!sent.isDone()) {
			ScheduledFuture<?> timeout = TIMER.schedule(() -> sent.completeExceptionally(new TimeoutException()),
					Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
			sent.whenComplete((answer, failure) -> timeout.cancel(false));
		}
		CompletableFuture<T> bounded = new CompletableFuture<>();
		sent.whenComplete((answer, failure) -> {
			if (failure == null) {
				bounded.complete(answer);
				return;
			}
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			bounded.completeExceptionally((cause instanceof TimeoutException) ? timedOut(cause)
					: (cause instanceof RateLimitStoreException storeFailure) ? storeFailure
							: new RateLimitStoreException("Redis store failed: " + cause, cause));
		});
		return bounded;
	}

	private static ScheduledExecutorService timer() {
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "limiter-redis-timeout");
			thread.setDaemon(true);
			return thread;
		});
		timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		return timer;
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
	 * Runs a blocking call on this thread, given the end of its wait
	 * ({@link System#nanoTime()}): what the request has left of its timeout. What the
	 * call took is booked like any wait; a read that ran out of time, or the call
	 * failing, throws a {@link RateLimitStoreException}.
	 */
	<T> T onThisThread(LongFunction<T> untilDeadline) {
		long start = System.nanoTime();
		try {
			return untilDeadline.apply(requestDeadline(start));
		}
		catch (RateLimitStoreException storeFailure) {
			throw storeFailure;
		}
		catch (Expired ex) {
			throw timedOut(ex);
		}
		catch (RuntimeException ex) {
			for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
				if (t instanceof SocketTimeoutException) {
					throw timedOut(ex);
				}
			}
			throw new RateLimitStoreException("Redis store failed: " + ex.getMessage(), ex);
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
			throw timedOut(ex);
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

	private RateLimitStoreException timedOut(Throwable cause) {
		return new RateLimitStoreException("Redis store did not answer within " + timeout.toMillis() + "ms", cause);
	}

	/**
	 * Thrown by a call on the calling thread that finds no time left before its next
	 * command.
	 */
	static final class Expired extends RuntimeException {

		Expired() {
			super("no time left for the next command", null, false, false);
		}

	}

}
