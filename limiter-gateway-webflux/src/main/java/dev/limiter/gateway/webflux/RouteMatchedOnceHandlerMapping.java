package dev.limiter.gateway.webflux;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.core.env.Environment;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * The gateway's own handler mapping, whose route lookup runs the routes' predicates once
 * per request: the application-wide limiter asks for the request's route before the
 * gateway's dispatcher does (to leave a {@code Limiter} route's request to its filter, or
 * to find the handler of any other), and both are answered from the first lookup. The
 * answer is kept in the exchange for the request it was made for, so a request the
 * gateway forwards within the application (a {@code forward:} route, a new request) is
 * looked up afresh.
 */
final class RouteMatchedOnceHandlerMapping extends RoutePredicateHandlerMapping {

	private static final String MATCHED = RouteMatchedOnceHandlerMapping.class.getName() + ".matched";

	RouteMatchedOnceHandlerMapping(FilteringWebHandler webHandler, RouteLocator routeLocator,
			GlobalCorsProperties globalCorsProperties, Environment environment) {
		super(webHandler, routeLocator, globalCorsProperties, environment);
	}

	/** The route serving {@code exchange}, empty when none matches. */
	Mono<Route> matchedRoute(ServerWebExchange exchange) {
		return lookupRoute(exchange);
	}

	@Override
	protected Mono<Route> lookupRoute(ServerWebExchange exchange) {
		ServerHttpRequest request = exchange.getRequest();
		if (exchange.getAttribute(MATCHED) instanceof Matched matched && matched.request() == request) {
			return Mono.justOrEmpty(matched.route());
		}
		return super.lookupRoute(exchange)
			.doOnNext((route) -> exchange.getAttributes().put(MATCHED, new Matched(request, route)))
			.switchIfEmpty(Mono.fromRunnable(() -> exchange.getAttributes().put(MATCHED, new Matched(request, null))));
	}

	/** The route a lookup found for {@code request} ({@code null}: none). */
	private record Matched(ServerHttpRequest request, Route route) {
	}

}
