package dev.limiter.resilience;

import java.util.Objects;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.Settlement;
import dev.limiter.core.StoreNotCalledException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * Stops paying a failing store's timeout: every call passes a Resilience4j
 * {@link CircuitBreaker} ({@link StoreCircuitBreaker}); while it is open, calls fail at
 * once with a {@link StoreNotCalledException} and the fail-open wrapper decides.
 * Half-open probes let the store heal by itself.
 *
 * <p>
 * Releases are not guarded: they are asynchronous, their failure costs nothing but a
 * lease that expires by itself, and counting them would let a slow release path open the
 * breaker for decisions.
 *
 * @see RateLimitStoreException
 */
public final class CircuitBreakingRateLimitStore implements RateLimitStore {

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

	/** Not through the breaker, as a release is not: it is sent without waiting. */
	@Override
	public CompletionStage<Void> settle(Settlement settlement, long nowMillis) {
		return store.settle(settlement, nowMillis);
	}

	@Override
	public void release(Lease lease, long nowMillis) {
		store.release(lease, nowMillis);
	}

	/**
	 * Not counted by the breaker, like a release: a lost renewal only lets the lease
	 * expire by itself.
	 */
	@Override
	public boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		return store.renew(lease, expiresAtMillis, nowMillis);
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		return breaker.call(() -> store.peek(budget, key, nowMillis));
	}

	@Override
	public void reset(Budget budget, String key) {
		breaker.run(() -> store.reset(budget, key));
	}

	@Override
	public String name() {
		return store.name();
	}

	public CircuitBreaker circuitBreaker() {
		return breaker.circuitBreaker();
	}

	/** The breaker's decoration, for the guard's store to share. */
	public StoreCircuitBreaker breaker() {
		return breaker;
	}

	public RateLimitStore delegate() {
		return store;
	}

	/** See {@link StoreCircuitBreaker#settled()}. */
	public boolean settled() {
		return breaker.settled();
	}

}
