package dev.limiter.core.guard;

import java.util.Objects;

import dev.limiter.core.Lease;
import dev.limiter.core.contract.AsyncCalls;

/**
 * A guard store under contract test, called the way a caller that must not wait calls it:
 * {@code reserve} is the store's {@link AuthGuardStore#reserveAsync} read through
 * {@link PendingReservation#toStage()}, {@code fail} its
 * {@link AuthGuardStore#failAsync}, each answer read by {@link AsyncCalls}; everything
 * else passes through.
 */
public final class AsyncReservingGuardStore implements AuthGuardStore {

	private final AuthGuardStore store;

	private final AsyncCalls calls;

	public AsyncReservingGuardStore(AuthGuardStore store, AsyncCalls calls) {
		this.store = Objects.requireNonNull(store, "store");
		this.calls = Objects.requireNonNull(calls, "calls");
	}

	@Override
	public Reservation reserve(String addressKey, String credentialKey, long nowMillis) {
		return calls.await(() -> store.reserveAsync(addressKey, credentialKey, nowMillis).toStage());
	}

	@Override
	public Failure fail(String addressKey, Lease reservation, long nowMillis) {
		return calls.await(() -> store.failAsync(addressKey, reservation, nowMillis));
	}

	@Override
	public void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis) {
		store.succeed(addressKey, reservation, credentialKey, nowMillis);
	}

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
		return store.state(addressKey, nowMillis);
	}

}
