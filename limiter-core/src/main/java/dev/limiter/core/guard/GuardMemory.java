package dev.limiter.core.guard;

import java.util.concurrent.ConcurrentHashMap;

/**
 * What one instance of the guard learned, so that the common case costs the store
 * nothing:
 * <ul>
 * <li>a block, once seen (started here or read from the store), refuses its address until
 * it ends without asking the store again;</li>
 * <li>a credential that authenticated here within {@code remember-authenticated} is not a
 * guess: its lookup needs no reservation (a block this instance knows of still refuses
 * it);</li>
 * <li>an address that failed here since its last success: a later success through a
 * remembered credential still clears its failures (the one store call of that path);</li>
 * <li>the lookups running ahead of their reservation's answer, per address.</li>
 * </ul>
 * Each memory holds at most {@value #MAX_KEYS} entries; when full of live entries it
 * stops learning, and the store answers as before (the safe direction). Time is a
 * parameter.
 */
final class GuardMemory {

	static final int MAX_KEYS = 10_000;

	/** Address keys under a block this instance knows of, until it ends. */
	private final ExpiringKeys blocks = new ExpiringKeys(MAX_KEYS);

	/**
	 * The blocks among {@link #blocks} that were decided without the authoritative store.
	 */
	private final ExpiringKeys degradedBlocks = new ExpiringKeys(MAX_KEYS);

	/** Credential keys remembered as authenticated here. */
	private final ExpiringKeys authenticated = new ExpiringKeys(MAX_KEYS);

	/**
	 * Address keys this instance counted a failure for (not cleared since), for a window.
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
	 * A block seen (started here or read from the store): refuses its address here until
	 * it ends, and the address's failures here are settled by it.
	 */
	void blocked(String addressKey, long untilMillis, boolean degraded, long nowMillis) {
		blocks.remember(addressKey, untilMillis, nowMillis);
		if (degraded) {
			degradedBlocks.remember(addressKey, untilMillis, nowMillis);
		}
		else {
			degradedBlocks.forget(addressKey);
		}
		failedHere.forget(addressKey);
	}

	boolean authenticated(String credentialKey, long nowMillis) {
		return authenticated.contains(credentialKey, nowMillis);
	}

	void rememberAuthenticated(String credentialKey, long untilMillis, long nowMillis) {
		authenticated.remember(credentialKey, untilMillis, nowMillis);
	}

	void forgetAuthenticated(String credentialKey) {
		authenticated.forget(credentialKey);
	}

	void failedHere(String addressKey, long untilMillis, long nowMillis) {
		failedHere.remember(addressKey, untilMillis, nowMillis);
	}

	/** Forgets that the address failed here; whether it had. */
	boolean clearFailedHere(String addressKey) {
		return failedHere.forget(addressKey);
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
