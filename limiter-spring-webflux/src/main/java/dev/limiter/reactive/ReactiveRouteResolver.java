package dev.limiter.reactive;

import dev.limiter.spring.RoutePolicy;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * Maps a reactive request to its {@link RoutePolicy}: the reactive counterpart of
 * {@link dev.limiter.spring.RouteResolver}. The default
 * ({@link HandlerMappingRouteResolver}) reads {@code limiter.routes}, then
 * {@code @RateLimited}/{@code @RateLimitExempt} on the annotated controller WebFlux will
 * call, for annotated controllers and {@code RouterFunction} routes alike; define a bean
 * of this type to replace it.
 */
@FunctionalInterface
public interface ReactiveRouteResolver {

	/**
	 * @return the policy; empty stands for {@link RoutePolicy#DEFAULT}
	 */
	Mono<RoutePolicy> resolve(ServerWebExchange exchange);

}
