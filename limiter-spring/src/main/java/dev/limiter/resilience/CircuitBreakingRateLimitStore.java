package dev.limiter.resilience;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.StoreNotCalledException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Stops paying a failing store's timeout: every call passes a Resilience4j
 * {@link CircuitBreaker}; while it is open, calls fail at once with a
 * {@link RateLimitStoreException} and the fail-open wrapper decides. Half-open probes let
 * the store heal by itself. A refusal is a {@link StoreNotCalledException} whose cause is
 * the store's last real failure, so that the outage is reported with the store's error,
 * not the breaker's.
 *
 * <p>
 * Releases are not guarded: they are asynchronous, their failure costs nothing but a
 * lease that expires by itself, and counting them would let a slow release path open the
 * breaker for decisions.
 */
public final class CircuitBreakingRateLimitStore implements RateLimitStore {

	private final RateLimitStore store;

	private final CircuitBreaker breaker;

	private volatile RuntimeException lastFailure;

	public CircuitBreakingRateLimitStore(RateLimitStore store, CircuitBreaker breaker) {
		this.store = Objects.requireNonNull(store, "store");
		this.breaker = Objects.requireNonNull(breaker, "breaker");
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		return guarded(() -> store.take(budget, key, cost, expensive, nowMillis));
	}

	@Override
	public void release(Lease lease, long nowMillis) {
		store.release(lease, nowMillis);
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		return guarded(() -> store.peek(budget, key, nowMillis));
	}

	@Override
	public void reset(Budget budget, String key) {
		guarded(() -> {
			store.reset(budget, key);
			return null;
		});
	}

	@Override
	public String name() {
		return store.name();
	}

	public CircuitBreaker circuitBreaker() {
		return breaker;
	}

	public RateLimitStore delegate() {
		return store;
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

	/**
	 * Resilience4j's own decoration (permission, timing, recording) around the call; only
	 * the translation of its answers is ours: a refusal names the store's last real
	 * failure, and any failure is a store failure.
	 */
	private <T> T guarded(Supplier<T> call) {
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
		catch (CallNotPermittedException refused) {
			throw new StoreNotCalledException("circuit breaker '" + breaker.getName() + "' is "
					+ breaker.getState().name().toLowerCase(Locale.ROOT) + "; store not called", lastFailure);
		}
		catch (RateLimitStoreException failure) {
			throw failure;
		}
		catch (RuntimeException failure) {
			throw new RateLimitStoreException("store failed: " + failure.getMessage(), failure);
		}
	}

}
