package dev.limiter.reactive;

import dev.limiter.actuate.NoStoreEndpoint;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Marks every response of the {@code limiter} endpoint {@code no-store} for browsers and
 * CDNs on a reactive application ({@link NoStoreEndpoint} says which), before the
 * endpoint runs: its operations cannot set headers themselves.
 */
public final class NoStoreEndpointWebFilter implements WebFilter, Ordered {

	private final NoStoreEndpoint endpoint;

	public NoStoreEndpointWebFilter(NoStoreEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		String path = request.getPath().value();
		if (endpoint.covers(path, request.getPath().contextPath().value().length())) {
			NoStoreEndpoint.markNoStore(exchange.getResponse().getHeaders()::set);
		}
		return chain.filter(exchange);
	}

}
