package dev.limiter.core.guard;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;

/**
 * What {@link AuthGuard} makes of the store's answers before a lookup, and what this
 * instance learns from them ({@link GuardMemory}): blocks seen, blocks lifted, and
 * whether a block may refuse unknown credentials here without asking again.
 */
final class StoreAnswers {

	private static final long SATURATED_RETRY_MILLIS = 1000;

	private final AuthGuardStore store;

	private final GuardMemory memory;

	StoreAnswers(AuthGuardStore store, GuardMemory memory) {
		this.store = store;
		this.memory = memory;
	}

	GuardAdmission admission(String addressKey, String credentialKey, PendingReservation pending, long nowMillis) {
		AuthGuardStore.Reservation reservation;
		try {
			reservation = pending.await();
		}
		catch (RateLimitStoreException unavailable) {
			return unguarded(addressKey, credentialKey, nowMillis);
		}
		return answered(addressKey, credentialKey, reservation, nowMillis);
	}

	/**
	 * {@link #admission} without waiting: the same answers, once the reservation's stage
	 * completes; a store failure is {@link #unguarded} there too, and anything else fails
	 * the stage.
	 */
	CompletionStage<GuardAdmission> admissionStage(String addressKey, String credentialKey, PendingReservation pending,
			long nowMillis) {
		CompletionStage<AuthGuardStore.Reservation> reservation;
		try {
			reservation = pending.toStage();
		}
		catch (RuntimeException failedToAsk) {
			reservation = CompletableFuture.failedFuture(failedToAsk);
		}
		return reservation.handle((answer, failure) -> {
			if (failure == null) {
				return answered(addressKey, credentialKey, answer, nowMillis);
			}
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			if (cause instanceof RateLimitStoreException) {
				return unguarded(addressKey, credentialKey, nowMillis);
			}
			throw (failure instanceof CompletionException wrapped) ? wrapped : new CompletionException(cause);
		});
	}

	private GuardAdmission answered(String addressKey, String credentialKey, AuthGuardStore.Reservation reservation,
			long nowMillis) {
		switch (reservation.outcome()) {
			case BLOCKED -> {
				memory.blocked(addressKey, reservation.blockedUntilMillis(), reservation.degraded(),
						reservation.provenCredentials(), nowMillis);
				return blocked(addressKey, reservation.blockedUntilMillis(), nowMillis, reservation.degraded());
			}
			case SATURATED -> {
				return saturated(addressKey, reservation.degraded());
			}
			default -> {
				return admitted(addressKey, credentialKey, reservation, nowMillis);
			}
		}
	}

	/**
	 * An admission from the store: a block known here that the store no longer has was
	 * lifted, unless the answer (or the block) came from a fallback, which does not know
	 * the authoritative store's blocks; a proven credential let through a running block
	 * teaches this instance the block.
	 */
	private GuardAdmission admitted(String addressKey, String credentialKey, AuthGuardStore.Reservation reservation,
			long nowMillis) {
		long knownBlock = memory.blockedUntil(addressKey, nowMillis);
		if (knownBlock > 0 && reservation.blockedUntilMillis() == 0) {
			boolean knownDegraded = memory.blockDegraded(addressKey, nowMillis);
			if (reservation.degraded() || knownDegraded) {
				release(reservation.lease(), nowMillis);
				return blocked(addressKey, knownBlock, nowMillis, knownDegraded);
			}
			memory.unblocked(addressKey);
		}
		if (reservation.blockedUntilMillis() > nowMillis) {
			memory.blocked(addressKey, reservation.blockedUntilMillis(), reservation.degraded(), true, nowMillis);
		}
		return GuardAdmission.admitted(addressKey, reservation.lease(), reservation.degraded(),
				reservation.failuresSeen(), credentialKey);
	}

	/**
	 * The store could not answer at all: admitted without a reservation (fail open),
	 * unless this instance knows the address is blocked.
	 */
	GuardAdmission unguarded(String addressKey, String credentialKey, long nowMillis) {
		long knownBlock = memory.blockedUntil(addressKey, nowMillis);
		if (knownBlock > 0) {
			return blocked(addressKey, knownBlock, nowMillis, true);
		}
		return GuardAdmission.admitted(addressKey, null, true, 0, credentialKey);
	}

	void release(Lease lease, long nowMillis) {
		if (lease == null) {
			return;
		}
		try {
			store.release(lease, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			// The reservation expires by itself after the lookup lease.
		}
	}

	static GuardAdmission blocked(String addressKey, long until, long nowMillis, boolean degraded) {
		return GuardAdmission.refused(GuardAdmission.Outcome.BLOCKED, addressKey, Math.max(1, until - nowMillis),
				degraded);
	}

	private static GuardAdmission saturated(String addressKey, boolean degraded) {
		return GuardAdmission.refused(GuardAdmission.Outcome.SATURATED, addressKey, SATURATED_RETRY_MILLIS, degraded);
	}

}
