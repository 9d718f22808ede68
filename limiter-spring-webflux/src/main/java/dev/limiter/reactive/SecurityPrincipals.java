package dev.limiter.reactive;

import java.security.Principal;

import reactor.core.publisher.Mono;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.web.server.ServerWebExchange;

/**
 * The {@code Authentication} reactive Spring Security established for the request (the
 * Reactor context's {@link ReactiveSecurityContextHolder}), when it is authenticated and
 * not anonymous; else the exchange's own principal.
 */
public final class SecurityPrincipals {

	private SecurityPrincipals() {
	}

	public static Mono<Principal> authenticated(ServerWebExchange exchange) {
		return ReactiveSecurityContextHolder.getContext()
			.mapNotNull(SecurityContext::getAuthentication)
			.filter(SecurityPrincipals::counts)
			.<Principal>map((authentication) -> authentication)
			.switchIfEmpty(Mono.defer(() -> exchange.getPrincipal()
				.filter((principal) -> !(principal instanceof Authentication authentication)
						|| counts(authentication))));
	}

	private static boolean counts(Authentication authentication) {
		return authentication.isAuthenticated() && !(authentication instanceof AnonymousAuthenticationToken);
	}

}
