package dev.limiter.benchmarks;

import java.nio.ByteBuffer;
import java.util.Base64;

import dev.limiter.core.Sha256;

/**
 * Counter keys shaped like the ones the starter's {@code DefaultKeyResolver} produces for
 * bearer tokens: {@code t:} followed by the SHA-256 of the token, base64url without
 * padding (45 characters in all).
 */
final class CallerKeys {

	private CallerKeys() {
	}

	static String key(long i) {
		byte[] digest = Sha256.digest(ByteBuffer.allocate(8).putLong(i).array());
		return "t:" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
	}

	static String[] keys(int count) {
		String[] keys = new String[count];
		for (int i = 0; i < count; i++) {
			keys[i] = key(i);
		}
		return keys;
	}

}
