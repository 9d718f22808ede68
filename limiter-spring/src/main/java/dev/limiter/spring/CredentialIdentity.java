package dev.limiter.spring;

import java.security.Principal;

/**
 * Turns the principal that authentication established into the keys it is counted by. The
 * default key resolver asks every bean of this type in order, and the first non-null
 * answer wins; the starter contributes ones for Spring Security's OAuth2 token
 * authentications when they are on the class path. Define one for an authentication type
 * of your own that cannot implement {@link RateLimitCredential}.
 *
 * <p>
 * Implementations must answer from what authentication established (the
 * {@code Authentication} object), never from request text, and must give every spelling
 * of one credential the same key.
 */
@FunctionalInterface
public interface CredentialIdentity {

	/**
	 * The caller key of {@code authenticated} (never null itself, and never anonymous),
	 * or {@code null} when this identity does not know its type.
	 */
	CallerKey identify(Principal authenticated);

}
