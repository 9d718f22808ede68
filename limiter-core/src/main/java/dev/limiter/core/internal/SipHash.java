package dev.limiter.core.internal;

import java.security.SecureRandom;

/**
 * SipHash-2-4 (Aumasson and Bernstein) over a budget name and a key, read as UTF-16 code
 * units: a keyed hash whose collisions nobody can choose without the key.
 */
final class SipHash {

	private static final int COMPRESSION_ROUNDS = 2;

	private static final int FINALIZATION_ROUNDS = 4;

	/** Keys every segment choice in this process; unknown outside it. */
	private static final long SEED_0;

	private static final long SEED_1;

	static {
		SecureRandom random = new SecureRandom();
		SEED_0 = random.nextLong();
		SEED_1 = random.nextLong();
	}

	private SipHash() {
	}

	/**
	 * Draws this process's seed now, if it was not drawn yet (the class's initializer).
	 */
	static void seed() {
	}

	/** The hash of (budget, key) under this process's secret seed. */
	static long keyed(String budget, String key) {
		return hash(SEED_0, SEED_1, budget, key);
	}

	/**
	 * The hash of the budget's length (two units), the budget's units and the key's
	 * units.
	 */
	static long hash(long k0, long k1, String budget, String key) {
		long v0 = k0 ^ 0x736f6d6570736575L;
		long v1 = k1 ^ 0x646f72616e646f6dL;
		long v2 = k0 ^ 0x6c7967656e657261L;
		long v3 = k1 ^ 0x7465646279746573L;
		int units = 2 + budget.length() + key.length();
		int whole = units & ~3;
		int keyStart = 2 + budget.length();
		// One loop runs every SipRound: each whole word, then the last (partial) word
		// with the length, then the finalization, which mixes in no word (m = 0).
		for (int i = 0; i <= whole + 4; i += 4) {
			long m;
			int rounds = COMPRESSION_ROUNDS;
			if (i < whole) {
				// Words wholly inside the key (most of them) are read straight from it.
				m = i >= keyStart ? keyWord(key, i - keyStart) : word(budget, key, i);
			}
			else if (i == whole) {
				m = lastWord(budget, key, units, whole);
			}
			else {
				m = 0;
				v2 ^= 0xff;
				rounds = FINALIZATION_ROUNDS;
			}
			v3 ^= m;
			for (int r = 0; r < rounds; r++) {
				v0 += v1;
				v1 = Long.rotateLeft(v1, 13);
				v1 ^= v0;
				v0 = Long.rotateLeft(v0, 32);
				v2 += v3;
				v3 = Long.rotateLeft(v3, 16);
				v3 ^= v2;
				v0 += v3;
				v3 = Long.rotateLeft(v3, 21);
				v3 ^= v0;
				v2 += v1;
				v1 = Long.rotateLeft(v1, 17);
				v1 ^= v2;
				v2 = Long.rotateLeft(v2, 32);
			}
			v0 ^= m;
		}
		return v0 ^ v1 ^ v2 ^ v3;
	}

	/** The units after the last whole word, and the message length in bytes on top. */
	private static long lastWord(String budget, String key, int units, int whole) {
		long last = ((long) (units * 2) & 0xff) << 56;
		for (int i = whole; i < units; i++) {
			last |= (long) unit(budget, key, i) << (16 * (i - whole));
		}
		return last;
	}

	private static long word(String budget, String key, int from) {
		return (long) unit(budget, key, from) | (long) unit(budget, key, from + 1) << 16
				| (long) unit(budget, key, from + 2) << 32 | (long) unit(budget, key, from + 3) << 48;
	}

	private static long keyWord(String key, int from) {
		return (long) key.charAt(from) | (long) key.charAt(from + 1) << 16 | (long) key.charAt(from + 2) << 32
				| (long) key.charAt(from + 3) << 48;
	}

	private static int unit(String budget, String key, int index) {
		if (index < 2) {
			return (budget.length() >>> (16 * index)) & 0xffff;
		}
		index -= 2;
		return index < budget.length() ? budget.charAt(index) : key.charAt(index - budget.length());
	}

}
