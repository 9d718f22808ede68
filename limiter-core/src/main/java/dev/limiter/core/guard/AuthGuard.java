package dev.limiter.core.guard;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

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
 * What the instance learned is kept locally, so that the common case costs the store
 * nothing:
 * <ul>
 * <li>a block, once seen (started here or read from the store), refuses its address until
 * it ends without asking the store again;</li>
 * <li>a credential that authenticated here within {@code remember-authenticated} is not a
 * guess: its lookup needs no reservation (a block this instance knows of still refuses
 * it);</li>
 * <li>an address that failed here since its last success: a later success through a
 * remembered credential still clears its failures (the one store call of that path).</li>
 * </ul>
 * Each memory ({@link ExpiringKeys}) holds at most {@value #LOCAL_MAX_KEYS} entries; when
 * full of live entries it stops learning, and the store answers as before (the safe
 * direction).
 */
public final class AuthGuard {

	private static final long SATURATED_RETRY_MILLIS = 1000;
	static final int LOCAL_MAX_KEYS = 10_000;

	private final AuthGuardStore store;

	private final AuthGuardPolicy policy;

	/** Address keys under a block this instance knows of, until it ends. */
	private final ExpiringKeys blocks = new ExpiringKeys(LOCAL_MAX_KEYS);

	/**
	 * The blocks among {@link #blocks} that were decided without the authoritative store.
	 */
	private final ExpiringKeys degradedBlocks = new ExpiringKeys(LOCAL_MAX_KEYS);

	/** Credential keys remembered as authenticated here. */
	private final ExpiringKeys authenticated = new ExpiringKeys(LOCAL_MAX_KEYS);

	/**
	 * Address keys this instance counted a failure for (not cleared since), for a window.
	 */
	private final ExpiringKeys failedHere = new ExpiringKeys(LOCAL_MAX_KEYS);

	/**
	 * Lookups running ahead of their reservation's answer on this instance, per address.
	 */
	private final ConcurrentHashMap<String, Integer> lookupsAhead = new ConcurrentHashMap<>();

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
		long knownBlock = blocks.until(addressKey, nowMillis);
		if (knownBlock > 0) {
			return PendingAdmission
				.of(blocked(addressKey, knownBlock, nowMillis, degradedBlocks.contains(addressKey, nowMillis)));
		}
		if (credentialKey != null && authenticated.contains(credentialKey, nowMillis)) {
			return PendingAdmission
				.of(new GuardAdmission(GuardAdmission.Outcome.ADMITTED, addressKey, 0, null, false, 0, credentialKey));
		}
		boolean ahead = runAhead(addressKey, nowMillis);
		PendingReservation pending;
		try {
			pending = store.reserveAsync(addressKey, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			if (ahead) {
				ranAhead(addressKey);
			}
			return PendingAdmission.of(unguarded(addressKey, credentialKey));
		}
		if (!ahead || pending.isDone()) {
			if (ahead) {
				ranAhead(addressKey);
			}
			return PendingAdmission.of(admission(addressKey, credentialKey, pending, nowMillis));
		}
		return PendingAdmission.awaiting(() -> {
			try {
				return admission(addressKey, credentialKey, pending, nowMillis);
			}
			finally {
				ranAhead(addressKey);
			}
		});
	}

	/**
	 * Whether this lookup may run before its reservation's answer: as many per address as
	 * the store lets look up at once ({@code max-pending}), and none from an address that
	 * failed here. Any other waits for its reservation before the lookup, as every lookup
	 * once did, and the store answers it saturated when those ahead are still pending: a
	 * burst of guesses is looked up no further than the reservations allow, plus at most
	 * {@code max-pending} per instance whose verdict is withheld.
	 */
	private boolean runAhead(String addressKey, long nowMillis) {
		if (failedHere.contains(addressKey, nowMillis) || lookupsAhead.size() >= LOCAL_MAX_KEYS) {
			return false;
		}
		boolean[] taken = new boolean[1];
		lookupsAhead.compute(addressKey, (key, running) -> {
			int ahead = running == null ? 0 : running;
			if (ahead >= policy.maxPending()) {
				return running;
			}
			taken[0] = true;
			return ahead + 1;
		});
		return taken[0];
	}

	private void ranAhead(String addressKey) {
		lookupsAhead.computeIfPresent(addressKey, (key, running) -> running <= 1 ? null : running - 1);
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
				rememberBlock(addressKey, reservation.blockedUntilMillis(), reservation.degraded(), nowMillis);
				failedHere.forget(addressKey);
				return blocked(addressKey, reservation.blockedUntilMillis(), nowMillis, reservation.degraded());
			}
			case SATURATED -> {
				return saturated(addressKey, reservation.degraded());
			}
			default -> {
				return new GuardAdmission(GuardAdmission.Outcome.ADMITTED, addressKey, 0, reservation.lease(),
						reservation.degraded(), reservation.failuresSeen(), credentialKey);
			}
		}
	}

	private static GuardAdmission unguarded(String addressKey, String credentialKey) {
		return new GuardAdmission(GuardAdmission.Outcome.ADMITTED, addressKey, 0, null, true, 0, credentialKey);
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
			authenticated.forget(admission.credentialKey());
		}
		failedHere.remember(admission.addressKey(), nowMillis + policy.window().toMillis(), nowMillis);
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
				rememberBlock(admission.addressKey(), failure.blockedUntilMillis(), admission.degraded(), nowMillis);
				failedHere.forget(admission.addressKey());
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
			authenticated.remember(admission.credentialKey(), nowMillis + policy.rememberAuthenticated().toMillis(),
					nowMillis);
		}
		boolean failedHereSince = failedHere.forget(admission.addressKey());
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

	private void rememberBlock(String addressKey, long until, boolean degraded, long nowMillis) {
		blocks.remember(addressKey, until, nowMillis);
		if (degraded) {
			degradedBlocks.remember(addressKey, until, nowMillis);
		}
		else {
			degradedBlocks.forget(addressKey);
		}
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

	private GuardAdmission blocked(String addressKey, long until, long nowMillis, boolean degraded) {
		return new GuardAdmission(GuardAdmission.Outcome.BLOCKED, addressKey, Math.max(1, until - nowMillis), null,
				degraded, 0);
	}

	private static GuardAdmission saturated(String addressKey, boolean degraded) {
		return new GuardAdmission(GuardAdmission.Outcome.SATURATED, addressKey, SATURATED_RETRY_MILLIS, null, degraded,
				0);
	}

	private static void requireAdmitted(GuardAdmission admission) {
		if (!Objects.requireNonNull(admission, "admission").admitted()) {
			throw new IllegalArgumentException("only an admitted request has a lookup to report on");
		}
	}

}
