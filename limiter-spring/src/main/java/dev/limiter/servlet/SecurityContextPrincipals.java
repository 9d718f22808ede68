package dev.limiter.servlet;

import java.security.Principal;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Finds the authenticated (non-anonymous) {@link Authentication} of the current request.
 * Needs Spring Security.
 */
public final class SecurityContextPrincipals {

	private static final AuthenticationTrustResolver TRUST = new AuthenticationTrustResolverImpl();

	private SecurityContextPrincipals() {
	}

	public static Principal authenticated(HttpServletRequest request) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication == null || !authentication.isAuthenticated() || TRUST.isAnonymous(authentication)) {
			return null;
		}
		return authentication;
	}

}
