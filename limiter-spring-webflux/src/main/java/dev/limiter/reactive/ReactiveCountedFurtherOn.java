package dev.limiter.reactive;

import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * Whether a request is counted further on by a filter that knows its route better than
 * the application-wide {@link ReactiveRateLimitFilter} (a Spring Cloud Gateway route
 * carrying the {@code Limiter} filter, which decides through
 * {@link ReactiveRateLimitFilter#filter(ServerWebExchange, dev.limiter.spring.RoutePolicy, org.springframework.web.server.WebFilterChain)}):
 * such a request passes the application-wide filter uncounted, so that it is counted
 * once. Every bean of this type is asked, in order, before the request's route is
 * resolved.
 */
@FunctionalInterface
public interface ReactiveCountedFurtherOn {

	/** {@code true} when a filter further on counts {@code exchange}. */
	Mono<Boolean> countedFurtherOn(ServerWebExchange exchange);

}
