package dev.limiter.resilience;

import java.util.Objects;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Lease;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardState;
import dev.limiter.core.guard.PendingReservation;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * The guard's store behind the limiter's circuit breaker, with the limiter's own store's
 * policy ({@link StoreCircuitBreaker}): a guard call that times out counts against Redis
 * exactly as a decision does, and an open breaker spares the guard its round trip.
 * Success settlements and releases are sent without waiting and are not counted, as for
 * lease releases.
 *
 * @param store the guard's store
 * @param breaker the breaker it shares with the limiter's store
 */
public record CircuitBreakingAuthGuardStore(AuthGuardStore store,
		StoreCircuitBreaker breaker) implements AuthGuardStore {

	public CircuitBreakingAuthGuardStore {
		Objects.requireNonNull(store, "store");
		Objects.requireNonNull(breaker, "breaker");
	}

	/** The guard's store behind a breaker of its own. */
	public CircuitBreakingAuthGuardStore(AuthGuardStore store, CircuitBreaker breaker) {
		this(store, new StoreCircuitBreaker(breaker));
	}

	@Override
	public Reservation reserve(String addressKey, String credentialKey, long nowMillis) {
		return breaker.call(() -> store.reserve(addressKey, credentialKey, nowMillis));
	}

	/**
	 * Sent at once while the breaker is closed, and its answer recorded by the breaker
	 * when it is read (the wait is the time after the lookup, which is what a request
	 * pays). Otherwise the reservation is asked for through the breaker when it is read,
	 * as {@link #reserve} would. Read without blocking
	 * ({@link PendingReservation#toStage}) the same way, through
	 * {@link StoreCircuitBreaker#callAsync}: a refusal of the breaker fails the stage at
	 * once.
	 */
	@Override
	public PendingReservation reserveAsync(String addressKey, String credentialKey, long nowMillis) {
		if (!breaker.settled()) {
			return recorded(new PendingReservation() {

				@Override
				public Reservation await() {
					return store.reserve(addressKey, credentialKey, nowMillis);
				}

				@Override
				public CompletionStage<Reservation> toStage() {
					return store.reserveAsync(addressKey, credentialKey, nowMillis).toStage();
				}

			});
		}
		try {
			return recorded(store.reserveAsync(addressKey, credentialKey, nowMillis));
		}
		catch (RuntimeException failedToSend) {
			return recorded(PendingReservation.failed(failedToSend));
		}
	}

	/** {@code pending}, its answer read through the breaker. */
	private PendingReservation recorded(PendingReservation pending) {
		return new PendingReservation() {

			@Override
			public Reservation await() {
				return breaker.call(pending::await);
			}

			@Override
			public CompletionStage<Reservation> toStage() {
				return breaker.callAsync(pending::toStage);
			}

		};
	}

	@Override
	public Failure fail(String addressKey, Lease reservation, long nowMillis) {
		return breaker.call(() -> store.fail(addressKey, reservation, nowMillis));
	}

	@Override
	public CompletionStage<Failure> failAsync(String addressKey, Lease reservation, long nowMillis) {
		return breaker.callAsync(() -> store.failAsync(addressKey, reservation, nowMillis));
	}

	@Override
	public void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis) {
		store.succeed(addressKey, reservation, credentialKey, nowMillis);
	}

	/**
	 * An operator's call: not counted by the breaker, which it would not tell anything.
	 */
	@Override
	public boolean unblock(String addressKey, long nowMillis) {
		return store.unblock(addressKey, nowMillis);
	}

	@Override
	public void release(Lease reservation, long nowMillis) {
		store.release(reservation, nowMillis);
	}

	@Override
	public GuardState state(String addressKey, long nowMillis) {
		return breaker.call(() -> store.state(addressKey, nowMillis));
	}

}
