package dev.limiter.spring;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Decides who a request is counted as. Runs after authentication. Define a bean of this
 * type to replace the default, which keys an authenticated request on what authentication
 * established (the credential, through the {@link CredentialIdentity} beans or a
 * {@link RateLimitCredential}, else a hash of the principal's name) and everything else
 * on {@code request.getRemoteAddr()}; it never reads the {@code Authorization} header.
 *
 * <p>
 * Implementations must never return a raw credential, and must never key an
 * unauthenticated request on anything the client can vary freely (such as an unvalidated
 * token): each distinct key is a fresh budget.
 */
@FunctionalInterface
public interface KeyResolver {

	CallerKey resolve(HttpServletRequest request);

}
