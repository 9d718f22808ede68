package dev.limiter.guard;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardState;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The guard's store behind the limiter's circuit breaker, like the limiter's own store: a
 * guard call that times out counts against Redis exactly as a decision does, and an open
 * breaker spares the guard its round trip. Success settlements and releases are sent
 * without waiting and are not counted, as for lease releases.
 */
public final class CircuitBreakingAuthGuardStore implements AuthGuardStore {

	private final AuthGuardStore store;

	private final CircuitBreaker breaker;

	public CircuitBreakingAuthGuardStore(AuthGuardStore store, CircuitBreaker breaker) {
		this.store = Objects.requireNonNull(store, "store");
		this.breaker = Objects.requireNonNull(breaker, "breaker");
	}

	@Override
	public Reservation reserve(String addressKey, long nowMillis) {
		return guarded(() -> store.reserve(addressKey, nowMillis));
	}

	@Override
	public Failure fail(String addressKey, Lease reservation, long nowMillis) {
		return guarded(() -> store.fail(addressKey, reservation, nowMillis));
	}

	@Override
	public void succeed(String addressKey, Lease reservation, boolean clearFailures, long nowMillis) {
		store.succeed(addressKey, reservation, clearFailures, nowMillis);
	}

	@Override
	public void release(Lease reservation, long nowMillis) {
		store.release(reservation, nowMillis);
	}

	@Override
	public GuardState state(String addressKey, long nowMillis) {
		return guarded(() -> store.state(addressKey, nowMillis));
	}

	private <T> T guarded(Supplier<T> call) {
		if (!breaker.tryAcquirePermission()) {
			throw new RateLimitStoreException("circuit breaker '" + breaker.getName() + "' is "
					+ breaker.getState().name().toLowerCase(Locale.ROOT) + "; store not called");
		}
		long start = breaker.getCurrentTimestamp();
		try {
			T result = call.get();
			breaker.onSuccess(breaker.getCurrentTimestamp() - start, breaker.getTimestampUnit());
			return result;
		}
		catch (RuntimeException failure) {
			breaker.onError(breaker.getCurrentTimestamp() - start, breaker.getTimestampUnit(), failure);
			throw failure instanceof RateLimitStoreException ? failure
					: new RateLimitStoreException("store failed: " + failure.getMessage(), failure);
		}
	}

}
