package dev.limiter.core.guard;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.Sha256;

/**
 * Blocks an address that keeps failing authentication, checked before the credential is
 * looked up (the Aport seed's authentication limiter, without its bugs).
 *
 * <p>
 * The counts live in an {@link AuthGuardStore}: on any {@link RateLimitStore} through its
 * ordinary SPI ({@link StoreBackedAuthGuardStore}), or in a store's own guard store,
 * which does each step in one round trip (the Redis store's {@code guard.lua}). Either
 * way the guard is exact across instances on Redis and falls back like the limiter when
 * the store fails.
 *
 * <p>
 * Admission requires completed failures plus lookups in flight, the new one included, to
 * stay within the threshold: a burst of concurrent guesses cannot look up more than
 * {@code threshold} credentials before the block. A failure is recorded before its
 * reservation is handed back, so that sum never dips while a lookup completes. Time is a
 * parameter: no method reads a clock.
 *
 * <p>
 * What the instance learned is kept in a bounded {@link GuardMemory} (blocks seen,
 * credentials that authenticated here, addresses that failed here), so that the common
 * case costs the store nothing; this class is the protocol: what to ask the store, when,
 * and what to learn from its answers.
 */
public final class AuthGuard {

	private static final long SATURATED_RETRY_MILLIS = 1000;

	private final AuthGuardStore store;

	private final AuthGuardPolicy policy;

	private final GuardMemory memory = new GuardMemory();

	/**
	 * The guard on any store, through its ordinary SPI
	 * ({@link StoreBackedAuthGuardStore}).
	 */
	public AuthGuard(RateLimitStore store, AuthGuardPolicy policy) {
		this(new StoreBackedAuthGuardStore(store, policy), policy);
	}

	/** The guard on its own store; {@code store} must apply the same {@code policy}. */
	public AuthGuard(AuthGuardStore store, AuthGuardPolicy policy) {
		this.store = Objects.requireNonNull(store, "store");
		this.policy = Objects.requireNonNull(policy, "policy");
	}

	/**
	 * The counter key of a client address: a SHA-256, so whatever a proxy put into the
	 * address is never written to a store, a log or a header as it came.
	 */
	public static String addressKey(String remoteAddress) {
		String address = remoteAddress == null || remoteAddress.isEmpty() ? "unknown" : remoteAddress;
		return "addr:" + Sha256.hex(address, 16);
	}

	/**
	 * The key a presented credential is remembered under: a SHA-256 of the whole header
	 * value, so that no credential is kept as it came, and a variant of a known
	 * credential is a different (unknown) one.
	 */
	public static String credentialKey(String authorizationHeader) {
		return Sha256.hex(authorizationHeader == null ? "" : authorizationHeader, 32);
	}

	public AuthGuardPolicy policy() {
		return policy;
	}

	/**
	 * Decides, before the lookup, whether a request from {@code addressKey} may have its
	 * credential looked up. When the store cannot answer at all the request is admitted
	 * without a reservation (fail open).
	 */
	public GuardAdmission admit(String addressKey, long nowMillis) {
		return admit(addressKey, null, nowMillis);
	}

	/**
	 * Decides, before the lookup, whether a request from {@code addressKey} presenting
	 * the credential {@code credentialKey} ({@link #credentialKey}; {@code null} if
	 * unknown) may have it looked up. A block this instance knows of refuses, and a
	 * credential it saw authenticate is admitted, both without a store call; anything
	 * else reserves the lookup in the store. When the store cannot answer at all the
	 * request is admitted without a reservation (fail open).
	 */
	public GuardAdmission admit(String addressKey, String credentialKey, long nowMillis) {
		return begin(addressKey, credentialKey, nowMillis).await();
	}

	/**
	 * {@link #admit(String, String, long)} without waiting for the store: the reservation
	 * is sent and the answer read by {@link PendingAdmission#await()}, so that the
	 * lookup, and the budget decision after it, run while the reservation travels.
	 * Whoever uses the lookup's verdict must await the admission first: a refused
	 * admission withholds the verdict.
	 */
	public PendingAdmission begin(String addressKey, String credentialKey, long nowMillis) {
		long knownBlock = memory.blockedUntil(addressKey, nowMillis);
		if (knownBlock > 0) {
			return PendingAdmission
				.of(blocked(addressKey, knownBlock, nowMillis, memory.blockDegraded(addressKey, nowMillis)));
		}
		if (credentialKey != null && memory.authenticated(credentialKey, nowMillis)) {
			return PendingAdmission.of(GuardAdmission.admitted(addressKey, null, false, 0, credentialKey));
		}
		// see GuardMemory.runAhead for how many lookups may run before their answer
		boolean ahead = memory.runAhead(addressKey, policy.maxPending(), nowMillis);
		PendingReservation pending;
		try {
			pending = store.reserveAsync(addressKey, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			if (ahead) {
				memory.ranAhead(addressKey);
			}
			return PendingAdmission.of(unguarded(addressKey, credentialKey));
		}
		if (!ahead || pending.isDone()) {
			if (ahead) {
				memory.ranAhead(addressKey);
			}
			return PendingAdmission.of(admission(addressKey, credentialKey, pending, nowMillis));
		}
		return PendingAdmission.awaiting(() -> {
			try {
				return admission(addressKey, credentialKey, pending, nowMillis);
			}
			finally {
				memory.ranAhead(addressKey);
			}
		});
	}

	private GuardAdmission admission(String addressKey, String credentialKey, PendingReservation pending,
			long nowMillis) {
		AuthGuardStore.Reservation reservation;
		try {
			reservation = pending.await();
		}
		catch (RateLimitStoreException unavailable) {
			return unguarded(addressKey, credentialKey);
		}
		switch (reservation.outcome()) {
			case BLOCKED -> {
				memory.blocked(addressKey, reservation.blockedUntilMillis(), reservation.degraded(), nowMillis);
				return blocked(addressKey, reservation.blockedUntilMillis(), nowMillis, reservation.degraded());
			}
			case SATURATED -> {
				return saturated(addressKey, reservation.degraded());
			}
			default -> {
				return GuardAdmission.admitted(addressKey, reservation.lease(), reservation.degraded(),
						reservation.failuresSeen(), credentialKey);
			}
		}
	}

	/** The store could not answer at all: admitted without a reservation (fail open). */
	private static GuardAdmission unguarded(String addressKey, String credentialKey) {
		return GuardAdmission.admitted(addressKey, null, true, 0, credentialKey);
	}

	/**
	 * The lookup proved the credential wrong: counts one failure, and blocks once the
	 * threshold is reached.
	 * @return whether this failure reached the threshold (the block runs from now)
	 */
	public boolean failed(GuardAdmission admission, long nowMillis) {
		return failedWithoutWaiting(admission, nowMillis).toCompletableFuture().join();
	}

	/**
	 * {@link #failed} without waiting for the store: the response does not depend on it.
	 * The stage completes with whether this failure reached the threshold, never
	 * exceptionally (a failure no store could count is lost, and the reservation goes
	 * back or expires by itself).
	 */
	public CompletionStage<Boolean> failedWithoutWaiting(GuardAdmission admission, long nowMillis) {
		requireAdmitted(admission);
		if (admission.credentialKey() != null) {
			// A credential remembered as good that fails now (revoked, expired) is a
			// guess like any other.
			memory.forgetAuthenticated(admission.credentialKey());
		}
		memory.failedHere(admission.addressKey(), nowMillis + policy.window().toMillis(), nowMillis);
		CompletionStage<AuthGuardStore.Failure> counted;
		try {
			counted = store.failAsync(admission.addressKey(), admission.reservation(), nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			counted = CompletableFuture.failedFuture(unavailable);
		}
		return counted.handle((failure, unavailable) -> {
			if (failure == null) {
				// Nothing could count this failure; the reservation still goes back (or
				// expires by itself).
				release(admission.reservation(), nowMillis);
				return false;
			}
			if (failure.blockedUntilMillis() > nowMillis) {
				// the failure is counted where the reservation was: by the fallback when
				// that one was degraded
				memory.blocked(admission.addressKey(), failure.blockedUntilMillis(), admission.degraded(), nowMillis);
			}
			return failure.reachedThreshold();
		});
	}

	/**
	 * The lookup proved the credential right: clears the address's completed failures
	 * (those seen when it was admitted; a failure that completed during this lookup was
	 * pending then and stays, the safe direction). Reservations of other lookups still in
	 * flight stay, and so does a block already started.
	 */
	public void succeeded(GuardAdmission admission, long nowMillis) {
		requireAdmitted(admission);
		if (admission.credentialKey() != null && policy.rememberAuthenticated().toMillis() > 0) {
			memory.rememberAuthenticated(admission.credentialKey(),
					nowMillis + policy.rememberAuthenticated().toMillis(), nowMillis);
		}
		boolean failedHereSince = memory.clearFailedHere(admission.addressKey());
		boolean clearFailures = admission.failuresSeen() > 0 || failedHereSince;
		if (!clearFailures && admission.reservation() == null) {
			return;
		}
		try {
			store.succeed(admission.addressKey(), admission.reservation(), clearFailures, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			// The failures stay counted (the safe direction); the reservation expires by
			// itself.
		}
	}

	/**
	 * The lookup ended without a verdict on the credential (it threw, or none took
	 * place): hands back the reservation only.
	 */
	public void abandoned(GuardAdmission admission, long nowMillis) {
		requireAdmitted(admission);
		release(admission.reservation(), nowMillis);
	}

	/**
	 * Reads an address's failures, lookups in flight and block without counting anything.
	 */
	public GuardState state(String addressKey, long nowMillis) {
		return store.state(addressKey, nowMillis);
	}

	private void release(Lease lease, long nowMillis) {
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

	private static GuardAdmission blocked(String addressKey, long until, long nowMillis, boolean degraded) {
		return GuardAdmission.refused(GuardAdmission.Outcome.BLOCKED, addressKey, Math.max(1, until - nowMillis),
				degraded);
	}

	private static GuardAdmission saturated(String addressKey, boolean degraded) {
		return GuardAdmission.refused(GuardAdmission.Outcome.SATURATED, addressKey, SATURATED_RETRY_MILLIS, degraded);
	}

	private static void requireAdmitted(GuardAdmission admission) {
		if (!Objects.requireNonNull(admission, "admission").admitted()) {
			throw new IllegalArgumentException("only an admitted request has a lookup to report on");
		}
	}

}
