package dev.limiter.core.guard;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

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
 * A success (reported only for a request the rate limiter admitted too) hands back its
 * own reservation and proves its credential for its address; it clears no failure. A
 * block lets proven credentials through to their lookup and refuses every other.
 *
 * <p>
 * What the instance learned is kept in a bounded {@link GuardMemory} (blocks seen,
 * credentials that authenticated here, addresses that failed here), so that the common
 * case costs the store nothing; this class is the protocol: what to ask the store, when,
 * and what to learn from its answers.
 */
public final class AuthGuard {

	private final AuthGuardStore store;

	private final AuthGuardPolicy policy;

	private final GuardMemory memory = new GuardMemory();

	private final StoreAnswers answers;

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
		this.answers = new StoreAnswers(store, memory);
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
	 * unknown) may have it looked up. A credential this instance saw authenticate from
	 * the address is admitted, through a block too, and an unknown one is refused by a
	 * block known here of an address without proven credentials, both without a store
	 * call; anything else asks the store, which lets a credential proven from the address
	 * through a block. When the store cannot answer at all the request is admitted
	 * without a reservation (fail open), unless a block is known here.
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
		return begin(addressKey, credentialKey, nowMillis, true);
	}

	/**
	 * {@link #begin} for a caller that must not wait (a reactive request on an event
	 * loop): the same protocol and the same answers, read with
	 * {@link PendingAdmission#toStage()}. Where {@link #begin} would wait for the store's
	 * answer before returning (this instance lets no more of the address's lookups run
	 * ahead of their reservation), this returns at once with
	 * {@link PendingAdmission#lookupWaits()} set: the caller then starts the lookup only
	 * once the stage has completed.
	 */
	public PendingAdmission beginWithoutWaiting(String addressKey, String credentialKey, long nowMillis) {
		return begin(addressKey, credentialKey, nowMillis, false);
	}

	private PendingAdmission begin(String addressKey, String credentialKey, long nowMillis, boolean mayWait) {
		if (credentialKey != null && memory.authenticated(addressKey, credentialKey, nowMillis)) {
			// proven from this address: not a guess, through a block too
			return PendingAdmission.of(GuardAdmission.admitted(addressKey, null, false, 0, credentialKey));
		}
		long knownBlock = memory.blockedUntil(addressKey, nowMillis);
		if (knownBlock > 0 && memory.refusesUnknown(addressKey, nowMillis)) {
			return PendingAdmission.of(StoreAnswers.blocked(addressKey, knownBlock, nowMillis,
					memory.blockDegraded(addressKey, nowMillis)));
		}
		// see GuardMemory.runAhead for how many lookups may run before their answer; none
		// from a blocked address, whose unknown credentials the store refuses
		boolean ahead = knownBlock == 0 && memory.runAhead(addressKey, policy.maxPending(), nowMillis);
		PendingReservation pending;
		try {
			pending = store.reserveAsync(addressKey, credentialKey, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			if (ahead) {
				memory.ranAhead(addressKey);
			}
			return PendingAdmission.of(answers.unguarded(addressKey, credentialKey, nowMillis));
		}
		if (!ahead || pending.isDone()) {
			if (ahead) {
				memory.ranAhead(addressKey);
			}
			if (mayWait || pending.isDone()) {
				return PendingAdmission.of(answers.admission(addressKey, credentialKey, pending, nowMillis));
			}
			return PendingAdmission.awaiting(() -> answers.admission(addressKey, credentialKey, pending, nowMillis),
					() -> answers.admissionStage(addressKey, credentialKey, pending, nowMillis), true);
		}
		return PendingAdmission.awaiting(() -> {
			try {
				return answers.admission(addressKey, credentialKey, pending, nowMillis);
			}
			finally {
				memory.ranAhead(addressKey);
			}
		}, () -> answers.admissionStage(addressKey, credentialKey, pending, nowMillis)
			.whenComplete((answered, failure) -> memory.ranAhead(addressKey)), false);
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
			memory.forgetAuthenticated(admission.addressKey(), admission.credentialKey());
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
				answers.release(admission.reservation(), nowMillis);
				return false;
			}
			if (failure.blockedUntilMillis() > nowMillis) {
				// the failure is counted where the reservation was: by the fallback when
				// that one was degraded
				memory.blocked(admission.addressKey(), failure.blockedUntilMillis(), admission.degraded(),
						failure.provenCredentials(), nowMillis);
			}
			return failure.reachedThreshold();
		});
	}

	/**
	 * The lookup proved the credential right <em>and the request was admitted</em> (by
	 * the rate limiter, when one decides after the lookup; a request it refused is
	 * {@link #abandoned}): hands the reservation back and proves the credential for its
	 * address, in the store (where a block then lets it through for {@code window}) and
	 * here (no reservation for {@code remember-authenticated}, at most {@code window}).
	 * It clears nothing else in the store: the address's failures are other credentials'
	 * and stay, as do other lookups' reservations and a block. On this instance the
	 * address's lookups may run ahead of their reservation again
	 * ({@link GuardMemory#succeededFrom}). The store is told at least once per half
	 * window of a credential this instance keeps proving, not on every request.
	 */
	public void succeeded(GuardAdmission admission, long nowMillis) {
		requireAdmitted(admission);
		String addressKey = admission.addressKey();
		String credentialKey = admission.credentialKey();
		memory.succeededFrom(addressKey);
		boolean tell = credentialKey == null ? admission.reservation() != null
				: memory.proved(addressKey, credentialKey, admission.reservation() != null, policy, nowMillis);
		if (!tell) {
			return;
		}
		try {
			store.succeed(addressKey, admission.reservation(), credentialKey, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			// The reservation expires by itself; the store is told of the credential
			// again by its next success.
			memory.forgetTold(addressKey, credentialKey);
		}
	}

	/**
	 * An operator lifts the address's block (and drops its failures) in the store and on
	 * this instance; other instances see it within
	 * {@value GuardMemory#BLOCK_RECHECK_MILLIS} ms. Whether a block was running in the
	 * store.
	 */
	public boolean unblock(String addressKey, long nowMillis) {
		boolean running = store.unblock(addressKey, nowMillis);
		memory.unblocked(addressKey);
		return running;
	}

	/**
	 * The lookup ended without a verdict on the credential (it threw, or none took
	 * place): hands back the reservation only.
	 */
	public void abandoned(GuardAdmission admission, long nowMillis) {
		requireAdmitted(admission);
		answers.release(admission.reservation(), nowMillis);
	}

	/**
	 * Reads an address's failures, lookups in flight and block without counting anything.
	 */
	public GuardState state(String addressKey, long nowMillis) {
		return store.state(addressKey, nowMillis);
	}

	private static void requireAdmitted(GuardAdmission admission) {
		if (!Objects.requireNonNull(admission, "admission").admitted()) {
			throw new IllegalArgumentException("only an admitted request has a lookup to report on");
		}
	}

}
