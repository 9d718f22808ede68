package dev.limiter.core.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's SipHash against a textbook byte-wise SipHash-2-4, itself checked against
 * the reference vectors of the SipHash paper (key 00..0f).
 */
class SipHashTests {

	private static final long K0 = 0x0706050403020100L;

	private static final long K1 = 0x0f0e0d0c0b0a0908L;

	@Test
	void referenceWhenGivenThePapersVectorsShouldMatchThem() {
		assertThat(reference(K0, K1, new byte[0])).isEqualTo(0x726fdb47dd0e0e31L);
		byte[] fifteen = new byte[15];
		for (int i = 0; i < fifteen.length; i++) {
			fifteen[i] = (byte) i;
		}
		assertThat(reference(K0, K1, fifteen)).isEqualTo(0xa129ca6149be45e5L);
	}

	@Test
	void hashWhenGivenBudgetsAndKeysOfEveryLengthShouldEqualTheReferenceOverTheirUnits() {
		String[] budgets = { "", "a", "standard", "auth-guard-failures" };
		StringBuilder key = new StringBuilder();
		for (int length = 0; length < 50; length++) {
			for (String budget : budgets) {
				assertThat(SipHash.hash(K0, K1, budget, key.toString()))
					.as("budget '%s', key of %d units", budget, length)
					.isEqualTo(reference(K0, K1, units(budget, key.toString())));
			}
			key.append((char) ('a' + length % 26 + (length % 3 == 0 ? 0x4e00 : 0)));
		}
	}

	/** The budget's length as two units, the budget, the key: UTF-16 little-endian. */
	private static byte[] units(String budget, String key) {
		ByteBuffer buffer = ByteBuffer.allocate(4 + 2 * (budget.length() + key.length()))
			.order(ByteOrder.LITTLE_ENDIAN);
		buffer.putInt(budget.length());
		for (char c : (budget + key).toCharArray()) {
			buffer.putChar(c);
		}
		return buffer.array();
	}

	private static long reference(long k0, long k1, byte[] message) {
		long[] v = { k0 ^ 0x736f6d6570736575L, k1 ^ 0x646f72616e646f6dL, k0 ^ 0x6c7967656e657261L,
				k1 ^ 0x7465646279746573L };
		int whole = message.length & ~7;
		ByteBuffer words = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
		for (int i = 0; i < whole; i += 8) {
			compress(v, words.getLong(i), 2);
		}
		long last = (long) (message.length & 0xff) << 56;
		for (int i = whole; i < message.length; i++) {
			last |= (message[i] & 0xffL) << (8 * (i - whole));
		}
		compress(v, last, 2);
		v[2] ^= 0xff;
		compress(v, 0, 4);
		return v[0] ^ v[1] ^ v[2] ^ v[3];
	}

	private static void compress(long[] v, long m, int rounds) {
		v[3] ^= m;
		for (int r = 0; r < rounds; r++) {
			v[0] += v[1];
			v[1] = Long.rotateLeft(v[1], 13) ^ v[0];
			v[0] = Long.rotateLeft(v[0], 32);
			v[2] += v[3];
			v[3] = Long.rotateLeft(v[3], 16) ^ v[2];
			v[0] += v[3];
			v[3] = Long.rotateLeft(v[3], 21) ^ v[0];
			v[2] += v[1];
			v[1] = Long.rotateLeft(v[1], 17) ^ v[2];
			v[2] = Long.rotateLeft(v[2], 32);
		}
		v[0] ^= m;
	}

}
