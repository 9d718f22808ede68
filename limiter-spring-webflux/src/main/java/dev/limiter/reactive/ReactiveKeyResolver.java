package dev.limiter.reactive;

import dev.limiter.spring.CallerKey;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * Decides who a reactive request is counted as: the reactive counterpart of
 * {@link dev.limiter.spring.KeyResolver}, under the same rules (never a raw credential,
 * never anything an unauthenticated client can vary freely). Define a bean of this type
 * to replace the default ({@link PrincipalKeyResolver}), which keys the
 * {@code Authentication} reactive Spring Security established exactly as the servlet
 * filter keys it, and everything else on the client's address.
 */
@FunctionalInterface
public interface ReactiveKeyResolver {

	/**
	 * @return the caller's key; never empty
	 */
	Mono<CallerKey> resolve(ServerWebExchange exchange);

}
