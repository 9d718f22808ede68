package dev.limiter.resilience;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.StoreNotCalledException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One store's calls behind a Resilience4j {@link CircuitBreaker} (permission, timing,
 * recording): the one breaker policy of the limiter's store and of the guard's. Only the
 * translation of its answers is ours: a refusal is a {@link StoreNotCalledException}
 * whose cause is the store's last real failure, so that the outage is reported with the
 * store's error, not the breaker's; any other failure is a
 * {@link RateLimitStoreException}.
 */
public final class StoreCircuitBreaker {

	private static final Log logger = LogFactory.getLog(StoreCircuitBreaker.class);

	private final CircuitBreaker breaker;

	private volatile RuntimeException lastFailure;

	public StoreCircuitBreaker(CircuitBreaker breaker) {
		this.breaker = Objects.requireNonNull(breaker, "breaker");
	}

	public CircuitBreaker circuitBreaker() {
		return breaker;
	}

	/**
	 * Whether the breaker is back to normal (closed, or not breaking at all), so that an
	 * outage may end.
	 */
	public boolean settled() {
		CircuitBreaker.State state = breaker.getState();
		return state == CircuitBreaker.State.CLOSED || state == CircuitBreaker.State.DISABLED
				|| state == CircuitBreaker.State.METRICS_ONLY;
	}

	/** Runs {@code call} if the breaker permits it, and records how it went. */
	public <T> T call(Supplier<T> call) {
		Supplier<T> remembering = () -> {
			try {
				return call.get();
			}
			catch (RuntimeException failure) {
				lastFailure = failure;
				throw failure;
			}
		};
		try {
			return CircuitBreaker.decorateSupplier(breaker, remembering).get();
		}
		catch (RuntimeException failure) {
			throw translated(failure);
		}
	}

	/**
	 * {@link #call} for a call whose answer arrives later, without blocking: sent if the
	 * breaker permits it ({@code tryAcquirePermission}), recorded with its measured
	 * duration when it completes ({@code onResult}/{@code onError}). The stage fails,
	 * unwrapped, with what {@link #call} would throw: a {@link StoreNotCalledException}
	 * at once while the breaker refuses, else a {@link RateLimitStoreException}; the
	 * breaker sees the store's own failure, never a {@link CompletionException} around
	 * it.
	 * <p>
	 * The recording runs where the store's answer arrives (a Redis client's event loop,
	 * often) and the stage completes whatever the recording throws: Resilience4j's own
	 * {@code decorateCompletionStage} leaves its stage pending forever when its recording
	 * throws, and one request would then wait for an answer that never comes.
	 */
	public <T> CompletionStage<T> callAsync(Supplier<CompletionStage<T>> call) {
		if (!breaker.tryAcquirePermission()) {
			return CompletableFuture
				.failedFuture(translated(CallNotPermittedException.createCallNotPermittedException(breaker)));
		}
		long start = breaker.getCurrentTimestamp();
		CompletionStage<T> sent;
		try {
			sent = call.get();
		}
		catch (RuntimeException failedToSend) {
			recorded(start, null, failedToSend);
			return CompletableFuture.failedFuture(translated(failedToSend));
		}
		CompletableFuture<T> decided = new CompletableFuture<>();
		sent.whenComplete((answer, failure) -> {
			RuntimeException cause = (failure != null) ? unwrapped(failure) : null;
			try {
				recorded(start, answer, cause);
			}
			finally {
				if (cause == null) {
					decided.complete(answer);
				}
				else {
					decided.completeExceptionally(translated(cause));
				}
			}
		});
		return decided;
	}

	/**
	 * Tells the breaker how a call sent at {@code start} went; a recording that fails is
	 * logged, never passed to the caller (the store's answer stands).
	 */
	private void recorded(long start, Object answer, RuntimeException failure) {
		try {
			long duration = breaker.getCurrentTimestamp() - start;
			if (failure == null) {
				breaker.onResult(duration, breaker.getTimestampUnit(), answer);
			}
			else {
				lastFailure = failure;
				breaker.onError(duration, breaker.getTimestampUnit(), failure);
			}
		}
		catch (Throwable recordingFailed) {
			logger.warn("Circuit breaker '" + breaker.getName() + "' could not record a store call: " + recordingFailed,
					recordingFailed);
		}
	}

	private RuntimeException translated(RuntimeException failure) {
		if (failure instanceof CallNotPermittedException) {
			return new StoreNotCalledException("circuit breaker '" + breaker.getName() + "' is "
					+ breaker.getState().name().toLowerCase(Locale.ROOT) + "; store not called", lastFailure);
		}
		if (failure instanceof RateLimitStoreException) {
			return failure;
		}
		return new RateLimitStoreException("store failed: " + failure.getMessage(), failure);
	}

	/**
	 * The failure a stage completed with, without the {@link CompletionException} that
	 * dependent stages wrap it in.
	 */
	static RuntimeException unwrapped(Throwable failure) {
		Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
				: failure;
		return cause instanceof RuntimeException runtime ? runtime
				: new RateLimitStoreException("store failed: " + cause, cause);
	}

	/** {@link #call} for a call that answers nothing. */
	public void run(Runnable call) {
		call(() -> {
			call.run();
			return null;
		});
	}

}
