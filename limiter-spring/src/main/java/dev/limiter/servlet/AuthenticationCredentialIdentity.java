package dev.limiter.servlet;

import java.security.Principal;

import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.spring.RateLimitCredential;

import org.springframework.security.core.Authentication;

/**
 * An {@link Authentication} whose principal (rather than the authentication itself)
 * implements {@link RateLimitCredential}: keyed on that credential. Needs Spring
 * Security.
 */
public final class AuthenticationCredentialIdentity implements CredentialIdentity {

	@Override
	public CallerKey identify(Principal authenticated) {
		if (authenticated instanceof Authentication authentication
				&& authentication.getPrincipal() instanceof RateLimitCredential credential) {
			return DefaultKeyResolver.credentialKey(credential, authentication);
		}
		return null;
	}

}
