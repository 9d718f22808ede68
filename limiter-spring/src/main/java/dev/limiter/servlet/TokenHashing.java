package dev.limiter.servlet;

import dev.limiter.core.Sha256;

/**
 * SHA-256, encoded base64url without padding (43 characters): compact and safe in keys
 * and headers.
 */
public final class TokenHashing {

	private TokenHashing() {
	}

	public static String sha256(String value) {
		return Sha256.base64Url(value);
	}

}
