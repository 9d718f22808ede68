package dev.limiter.spring;

/**
 * Implemented by an {@code Authentication} (or its principal) that was established from a
 * credential the limiter cannot see for itself, such as an application's own opaque token
 * or API key. The limiter then keys the request on {@code t:} + the base64url (unpadded)
 * of this digest, so it counts per credential rather than per principal name.
 *
 * <p>
 * A digest, not the credential: the authentication need keep no secret once it is
 * established. It must be the SHA-256 of one canonical text per credential; if the
 * application accepts several spellings of one credential (case, padding, whitespace), it
 * must digest the form it looked up, or a caller can buy a budget per spelling.
 */
@FunctionalInterface
public interface RateLimitCredential {

	/**
	 * The SHA-256 (32 bytes) of the canonical text of the credential this authentication
	 * was established from.
	 */
	byte[] rateLimitCredentialSha256();

}
