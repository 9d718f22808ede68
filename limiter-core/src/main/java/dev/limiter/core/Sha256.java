package dev.limiter.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The one SHA-256 of the limiter: counter keys, credential and address hashes never carry
 * the raw value.
 */
public final class Sha256 {

	/**
	 * One digest per thread: looking the algorithm up through the security providers on
	 * every call cost more than hashing a token.
	 */
	private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(() -> {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java platform has SHA-256", ex);
		}
	});

	private Sha256() {
	}

	/** The 32 bytes of the SHA-256 of {@code text} in UTF-8. */
	public static byte[] digest(String text) {
		return digest(text.getBytes(StandardCharsets.UTF_8));
	}

	/** The 32 bytes of the SHA-256 of {@code bytes}. */
	public static byte[] digest(byte[] bytes) {
		// digest() resets the instance, so the next call on this thread starts clean
		return DIGEST.get().digest(bytes);
	}

	/**
	 * The digest in base64url without padding (43 characters): compact and safe in keys
	 * and headers.
	 */
	public static String base64Url(String text) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(digest(text));
	}

	/** The first {@code bytes} bytes of the digest (at most 32) in lower-case hex. */
	public static String hex(String text, int bytes) {
		return HexFormat.of().formatHex(Arrays.copyOf(digest(text), bytes));
	}

}
