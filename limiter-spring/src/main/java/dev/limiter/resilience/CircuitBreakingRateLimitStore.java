package dev.limiter.resilience;

import java.util.Objects;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.StoreNotCalledException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * Stops paying a failing store's timeout: every call passes a Resilience4j
 * {@link CircuitBreaker} ({@link StoreCircuitBreaker}); while it is open, calls fail at
 * once with a {@link StoreNotCalledException} and the fail-open wrapper decides.
 * Half-open probes let the store heal by itself.
 *
 * <p>
 * Decisions, slices (ADR 0014), reads and resets are guarded. Releases, renewals and
 * settlements are not guarded (passed through): they are sent without waiting, their
 * failure costs nothing but a lease that expires by itself or a settlement dropped, and
 * counting them would let a slow release path open the breaker for decisions.
 *
 * @see RateLimitStoreException
 */
public final class CircuitBreakingRateLimitStore extends ForwardingRateLimitStore {

	private final RateLimitStore store;

	private final StoreCircuitBreaker breaker;

	public CircuitBreakingRateLimitStore(RateLimitStore store, CircuitBreaker breaker) {
		this(store, new StoreCircuitBreaker(breaker));
	}

	/** The store behind a decoration shared with the guard's store. */
	public CircuitBreakingRateLimitStore(RateLimitStore store, StoreCircuitBreaker breaker) {
		this.store = Objects.requireNonNull(store, "store");
		this.breaker = Objects.requireNonNull(breaker, "breaker");
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		return breaker.call(() -> store.take(budget, key, cost, expensive, nowMillis));
	}

	@Override
	public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		return breaker.call(() -> store.reserve(budget, key, amounts, expensive, nowMillis));
	}

	/**
	 * {@link #take} without blocking: the breaker's permission is asked now, the store's
	 * {@link RateLimitStore#takeAsync} sent if granted, and the outcome recorded with its
	 * duration when it completes ({@link StoreCircuitBreaker#callAsync}); while the
	 * breaker is open the stage fails at once with a {@link StoreNotCalledException}.
	 */
	@Override
	public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		return breaker.callAsync(() -> store.takeAsync(budget, key, cost, expensive, nowMillis));
	}

	/** {@link #reserve} without blocking, as {@link #takeAsync}. */
	@Override
	public CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
			long nowMillis) {
		return breaker.callAsync(() -> store.reserveAsync(budget, key, amounts, expensive, nowMillis));
	}

	/**
	 * A slice is a decision (ADR 0014): guarded as {@link #take}, so that an open breaker
	 * costs no round trip and a failing slice call counts toward opening it.
	 */
	@Override
	public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		return breaker.call(() -> store.takeSlice(budget, key, cost, terms, nowMillis));
	}

	/** {@link #takeSlice} without blocking, as {@link #takeAsync}. */
	@Override
	public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
			long nowMillis) {
		return breaker.callAsync(() -> store.takeSliceAsync(budget, key, cost, terms, nowMillis));
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		return breaker.call(() -> store.peek(budget, key, nowMillis));
	}

	@Override
	public void reset(Budget budget, String key) {
		breaker.run(() -> store.reset(budget, key));
	}

	public CircuitBreaker circuitBreaker() {
		return breaker.circuitBreaker();
	}

	/** The breaker's decoration, for the guard's store to share. */
	public StoreCircuitBreaker breaker() {
		return breaker;
	}

	@Override
	public RateLimitStore delegate() {
		return store;
	}

	/** See {@link StoreCircuitBreaker#settled()}. */
	public boolean settled() {
		return breaker.settled();
	}

}
