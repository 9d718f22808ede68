package dev.limiter.reactive;

import dev.limiter.guard.LookupAttempt;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Runs just after Spring Security's {@code WebFilterChainProxy}, where the
 * {@code Authentication} it established is in the Reactor context: a request the chain
 * let through with a real (non-anonymous) authentication proved its credential, whatever
 * mechanism looked it up; one it let through without proved nothing, and its guard
 * reservation goes back at once. The success counts only once the limiter's filter after
 * this one admits the request too (when there is none, nothing refuses it). The servlet's
 * {@code AuthenticationOutcomeFilter} on WebFlux.
 */
public final class ReactiveAuthenticationOutcomeFilter implements WebFilter, Ordered {

	/** After Spring Security's chain (order -100), before the limiter's filter. */
	public static final int ORDER_AFTER_SECURITY = -100 + 5;

	private final boolean limiterFollows;

	/**
	 * @param limiterFollows whether the limiter's filter runs after this one and tells
	 * the guard whether it admitted the request
	 */
	public ReactiveAuthenticationOutcomeFilter(boolean limiterFollows) {
		this.limiterFollows = limiterFollows;
	}

	@Override
	public int getOrder() {
		return ORDER_AFTER_SECURITY;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!(exchange.getAttribute(ReactiveAuthGuardFilter.ATTEMPT_ATTRIBUTE) instanceof LookupAttempt attempt)) {
			return chain.filter(exchange);
		}
		return SecurityPrincipals.authenticated(exchange).hasElement().flatMap((authenticated) -> {
			if (authenticated) {
				attempt.markAuthenticated();
				if (!limiterFollows) {
					// no limiter follows to refuse the request
					attempt.limiterDecided(true);
				}
			}
			else {
				attempt.markPassedUnauthenticated();
			}
			return chain.filter(exchange);
		});
	}

}
