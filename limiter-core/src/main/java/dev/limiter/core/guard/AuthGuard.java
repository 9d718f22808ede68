package dev.limiter.core.guard;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

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
 * Each memory holds at most {@value #LOCAL_MAX_KEYS} entries; when full of live entries
 * it stops learning, and the store answers as before (the safe direction).
 */
public final class AuthGuard {

	static final String PENDING_BUDGET = StoreBackedAuthGuardStore.PENDING_BUDGET;
	static final String FAILURES_BUDGET = StoreBackedAuthGuardStore.FAILURES_BUDGET;
	static final String BLOCK_BUDGET = StoreBackedAuthGuardStore.BLOCK_BUDGET;

	private static final long SATURATED_RETRY_MILLIS = 1000;
	static final int LOCAL_MAX_KEYS = 10_000;

	private final AuthGuardStore store;

	private final AuthGuardPolicy policy;

	/** Address key to the end of a block this instance knows of. */
	private final ConcurrentHashMap<String, Long> blocks = new ConcurrentHashMap<>();

	/**
	 * The blocks among {@link #blocks} that were decided without the authoritative store.
	 */
	private final ConcurrentHashMap<String, Long> degradedBlocks = new ConcurrentHashMap<>();

	/** Credential key to the end of the time it is remembered as authenticated here. */
	private final ConcurrentHashMap<String, Long> authenticated = new ConcurrentHashMap<>();

	/**
	 * Address key to when this instance last counted a failure for it (not cleared
	 * since).
	 */
	private final ConcurrentHashMap<String, Long> failedHere = new ConcurrentHashMap<>();

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
		return "addr:" + sha256Hex(address, 16);
	}

	private static String sha256Hex(String text, int bytes) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, bytes);
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
		}
	}

	/**
	 * The key a presented credential is remembered under: a SHA-256 of the whole header
	 * value, so that no credential is kept as it came, and a variant of a known
	 * credential is a different (unknown) one.
	 */
	public static String credentialKey(String authorizationHeader) {
		return sha256Hex(authorizationHeader == null ? "" : authorizationHeader, 32);
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
		long knownBlock = knownUntil(blocks, addressKey, nowMillis);
		if (knownBlock > 0) {
			return blocked(addressKey, knownBlock, nowMillis, knownUntil(degradedBlocks, addressKey, nowMillis) > 0);
		}
		if (credentialKey != null && knownUntil(authenticated, credentialKey, nowMillis) > 0) {
			return new GuardAdmission(GuardAdmission.Outcome.ADMITTED, addressKey, 0, null, false, 0, credentialKey);
		}
		try {
			AuthGuardStore.Reservation reservation = store.reserve(addressKey, nowMillis);
			switch (reservation.outcome()) {
				case BLOCKED -> {
					rememberBlock(addressKey, reservation.blockedUntilMillis(), reservation.degraded(), nowMillis);
					failedHere.remove(addressKey);
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
		catch (RateLimitStoreException unavailable) {
			return new GuardAdmission(GuardAdmission.Outcome.ADMITTED, addressKey, 0, null, true, 0, credentialKey);
		}
	}

	/**
	 * The lookup proved the credential wrong: counts one failure, and blocks once the
	 * threshold is reached.
	 * @return whether this failure reached the threshold (the block runs from now)
	 */
	public boolean failed(GuardAdmission admission, long nowMillis) {
		requireAdmitted(admission);
		if (admission.credentialKey() != null) {
			// A credential remembered as good that fails now (revoked, expired) is a
			// guess like any other.
			authenticated.remove(admission.credentialKey());
		}
		remember(failedHere, admission.addressKey(), nowMillis + policy.window().toMillis(), nowMillis);
		try {
			AuthGuardStore.Failure failure = store.fail(admission.addressKey(), admission.reservation(), nowMillis);
			if (failure.blockedUntilMillis() > nowMillis) {
				// the failure is counted where the reservation was: by the fallback when
				// that one was degraded
				rememberBlock(admission.addressKey(), failure.blockedUntilMillis(), admission.degraded(), nowMillis);
				failedHere.remove(admission.addressKey());
			}
			return failure.reachedThreshold();
		}
		catch (RateLimitStoreException unavailable) {
			// Nothing can count this failure; the reservation still goes back (or expires
			// by itself).
			release(admission.reservation(), nowMillis);
			return false;
		}
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
			remember(authenticated, admission.credentialKey(), nowMillis + policy.rememberAuthenticated().toMillis(),
					nowMillis);
		}
		boolean failedHereSince = failedHere.remove(admission.addressKey()) != null;
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
		remember(blocks, addressKey, until, nowMillis);
		if (degraded) {
			remember(degradedBlocks, addressKey, until, nowMillis);
		}
		else {
			degradedBlocks.remove(addressKey);
		}
	}

	/**
	 * The end of an entry still running at {@code nowMillis}, else 0 (and an ended entry
	 * is dropped).
	 */
	private static long knownUntil(ConcurrentHashMap<String, Long> memory, String key, long nowMillis) {
		Long until = memory.get(key);
		if (until == null) {
			return 0;
		}
		if (until > nowMillis) {
			return until;
		}
		memory.remove(key, until);
		return 0;
	}

	/**
	 * Remembers an entry until {@code until}, unless the memory is full of entries still
	 * running.
	 */
	private static void remember(ConcurrentHashMap<String, Long> memory, String key, long until, long nowMillis) {
		if (until <= nowMillis) {
			return;
		}
		if (memory.size() >= LOCAL_MAX_KEYS && !memory.containsKey(key)) {
			memory.values().removeIf(end -> end <= nowMillis);
			if (memory.size() >= LOCAL_MAX_KEYS) {
				return;
			}
		}
		memory.merge(key, until, Math::max);
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
