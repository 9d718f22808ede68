package dev.limiter.core.guard;

import java.util.concurrent.ConcurrentHashMap;

/**
 * What one instance of the guard learned, so that the common case costs the store
 * nothing:
 * <ul>
 * <li>a block, once seen (started here or read from the store), refuses its address's
 * unknown credentials without asking the store again when the store said no credential of
 * the address was proven, for at most {@value #BLOCK_RECHECK_MILLIS} ms at a time (then
 * the store is asked again: a block lifted by an operator, or a credential proven
 * meanwhile through another instance, is seen within that time); when the address has
 * proven credentials, each unknown credential is asked of the store, which lets the
 * proven ones through;</li>
 * <li>a credential that authenticated from an address here within
 * {@code remember-authenticated} (at most {@code window}) is not a guess: its lookup
 * needs no reservation, through a block too; and when the store was last told of it, so
 * that its proof there is renewed once per half window, not on every request;</li>
 * <li>an address that failed here (within {@code window}, or until its block ends): its
 * lookups do not run ahead of their reservation, until a success from it is admitted (the
 * store's failures stay counted; this memory only spares a legitimate user behind the
 * address a second round trip per new credential);</li>
 * <li>the lookups running ahead of their reservation's answer, per address.</li>
 * </ul>
 * Each memory holds at most {@value #MAX_KEYS} entries; when full of live entries it
 * stops learning, and the store answers as before (the safe direction). Time is a
 * parameter.
 */
final class GuardMemory {

	static final int MAX_KEYS = 10_000;

	/**
	 * How long a block known here refuses unknown credentials of an address without
	 * proven ones before the store is asked again.
	 */
	static final long BLOCK_RECHECK_MILLIS = 10_000;

	/** Address keys under a block this instance knows of, until it ends. */
	private final ExpiringKeys blocks = new ExpiringKeys(MAX_KEYS);

	/**
	 * The blocks among {@link #blocks} that were decided without the authoritative store.
	 */
	private final ExpiringKeys degradedBlocks = new ExpiringKeys(MAX_KEYS);

	/**
	 * The blocks among {@link #blocks} whose address had no proven credential when the
	 * store was last asked, until the store is asked again.
	 */
	private final ExpiringKeys refusingUnknown = new ExpiringKeys(MAX_KEYS);

	/** Address and credential keys remembered as authenticated here. */
	private final ExpiringKeys authenticated = new ExpiringKeys(MAX_KEYS);

	/**
	 * Address and credential keys this instance told the store of as proven, until that
	 * proof ends there.
	 */
	private final ExpiringKeys toldProven = new ExpiringKeys(MAX_KEYS);

	/**
	 * Address keys this instance counted a failure for, for a window (or until their
	 * block ends).
	 */
	private final ExpiringKeys failedHere = new ExpiringKeys(MAX_KEYS);

	/**
	 * Lookups running ahead of their reservation's answer on this instance, per address.
	 */
	private final ConcurrentHashMap<String, Integer> lookupsAhead = new ConcurrentHashMap<>();

	/** The end of a block of {@code addressKey} known here, else 0. */
	long blockedUntil(String addressKey, long nowMillis) {
		return blocks.until(addressKey, nowMillis);
	}

	/** Whether the known block of {@code addressKey} was decided by a fallback. */
	boolean blockDegraded(String addressKey, long nowMillis) {
		return degradedBlocks.contains(addressKey, nowMillis);
	}

	/**
	 * Whether the known block of {@code addressKey} refuses an unknown credential without
	 * asking the store.
	 */
	boolean refusesUnknown(String addressKey, long nowMillis) {
		return refusingUnknown.contains(addressKey, nowMillis);
	}

	/**
	 * A block seen (started here or read from the store): known here until it ends; it
	 * refuses unknown credentials here without asking the store for a while when the
	 * address has no {@code provenCredentials}. No lookup of the address runs ahead of
	 * its reservation until it ends.
	 */
	void blocked(String addressKey, long untilMillis, boolean degraded, boolean provenCredentials, long nowMillis) {
		blocks.remember(addressKey, untilMillis, nowMillis);
		if (degraded) {
			degradedBlocks.remember(addressKey, untilMillis, nowMillis);
		}
		else {
			degradedBlocks.forget(addressKey);
		}
		if (provenCredentials) {
			refusingUnknown.forget(addressKey);
		}
		else {
			refusingUnknown.remember(addressKey, Math.min(untilMillis, nowMillis + BLOCK_RECHECK_MILLIS), nowMillis);
		}
		failedHere.remember(addressKey, untilMillis, nowMillis);
	}

	/**
	 * The store has no block for the address (an operator lifted it, or this instance
	 * did).
	 */
	void unblocked(String addressKey) {
		blocks.forget(addressKey);
		degradedBlocks.forget(addressKey);
		refusingUnknown.forget(addressKey);
		failedHere.forget(addressKey);
	}

	boolean authenticated(String addressKey, String credentialKey, long nowMillis) {
		return authenticated.contains(proofKey(addressKey, credentialKey), nowMillis);
	}

	void forgetAuthenticated(String addressKey, String credentialKey) {
		authenticated.forget(proofKey(addressKey, credentialKey));
		toldProven.forget(proofKey(addressKey, credentialKey));
	}

	/**
	 * A credential proved right from an address and was admitted: remembered here for
	 * {@code remember-authenticated} (at most {@code window}). Whether the store must be
	 * told (it always is with a {@code reservation} to hand back, else once per half
	 * window), in which case this instance counts it as told.
	 */
	boolean proved(String addressKey, String credentialKey, boolean reservation, AuthGuardPolicy policy,
			long nowMillis) {
		long window = policy.window().toMillis();
		long remember = Math.min(policy.rememberAuthenticated().toMillis(), window);
		String key = proofKey(addressKey, credentialKey);
		if (remember > 0) {
			authenticated.remember(key, nowMillis + remember, nowMillis);
		}
		if (!reservation && toldProven.until(key, nowMillis) > nowMillis + window / 2) {
			return false;
		}
		toldProven.forget(key);
		toldProven.remember(key, nowMillis + window, nowMillis);
		return true;
	}

	/** The store could not be told of a proof: the next success tells it. */
	void forgetTold(String addressKey, String credentialKey) {
		if (credentialKey != null) {
			toldProven.forget(proofKey(addressKey, credentialKey));
		}
	}

	/**
	 * A success from the address was admitted: its lookups may run ahead of their
	 * reservation again (none does while a block of it is known, see
	 * {@link AuthGuard#begin}). A success shows a legitimate user behind the address, who
	 * would otherwise pay a second round trip for each new credential for a whole window;
	 * what runs ahead stays bounded by {@code max-pending} with its verdict withheld, and
	 * the store's failures stay counted.
	 */
	void succeededFrom(String addressKey) {
		failedHere.forget(addressKey);
	}

	void failedHere(String addressKey, long untilMillis, long nowMillis) {
		failedHere.remember(addressKey, untilMillis, nowMillis);
	}

	private static String proofKey(String addressKey, String credentialKey) {
		return addressKey + ' ' + credentialKey;
	}

	/**
	 * Whether one more lookup from {@code addressKey} may run before its reservation's
	 * answer: as many per address as the store lets look up at once ({@code maxAhead},
	 * the policy's {@code max-pending}), and none from an address that failed here. Any
	 * other waits for its reservation before the lookup, and the store answers it
	 * saturated when those ahead are still pending: a burst of guesses is looked up no
	 * further than the reservations allow, plus at most {@code max-pending} per instance
	 * whose verdict is withheld. A lookup let run ahead is handed back through
	 * {@link #ranAhead}.
	 */
	boolean runAhead(String addressKey, int maxAhead, long nowMillis) {
		if (failedHere.contains(addressKey, nowMillis) || lookupsAhead.size() >= MAX_KEYS) {
			return false;
		}
		boolean[] taken = new boolean[1];
		lookupsAhead.compute(addressKey, (key, running) -> {
			int ahead = running == null ? 0 : running;
			if (ahead >= maxAhead) {
				return running;
			}
			taken[0] = true;
			return ahead + 1;
		});
		return taken[0];
	}

	/** A lookup that {@link #runAhead ran ahead} has its answer. */
	void ranAhead(String addressKey) {
		lookupsAhead.computeIfPresent(addressKey, (key, running) -> running <= 1 ? null : running - 1);
	}

}
