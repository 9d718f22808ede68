package dev.limiter.gateway.webflux;

import java.util.Map;
import java.util.Objects;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.env.Environment;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * The gateway's own handler mapping, whose route lookup runs the routes' predicates once
 * per request: the application-wide limiter asks for the request's route before the
 * gateway's dispatcher does (to leave a {@code Limiter} route's request to its filter, or
 * to find the handler of any other), and both are answered from the first lookup. The
 * answer is kept in the exchange for the request it was made for and the weights drawn
 * when it was made: a request the gateway forwards within the application (a
 * {@code forward:} route, a new request), one a later filter replaced, or one whose
 * {@code Weight} groups were drawn since (the gateway's {@code WeightCalculatorWebFilter}
 * runs after the limiter's filter) is looked up afresh.
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
		Map<String, String> weights = weights(exchange);
		if (exchange.getAttribute(MATCHED) instanceof Matched matched && matched.request() == request
				&& Objects.equals(matched.weights(), weights)) {
			return Mono.justOrEmpty(matched.route());
		}
		return super.lookupRoute(exchange)
			.doOnNext((route) -> exchange.getAttributes().put(MATCHED, new Matched(request, weights, route)))
			.switchIfEmpty(Mono
				.fromRunnable(() -> exchange.getAttributes().put(MATCHED, new Matched(request, weights, null))));
	}

	/**
	 * The {@code Weight} groups' draws so far, {@code null} when none was drawn (the
	 * gateway's filter puts an empty map where no route is weighted).
	 */
	private static Map<String, String> weights(ServerWebExchange exchange) {
		Map<String, String> weights = exchange.getAttribute(ServerWebExchangeUtils.WEIGHT_ATTR);
		return (weights != null && !weights.isEmpty()) ? Map.copyOf(weights) : null;
	}

	/**
	 * The route a lookup found for {@code request} with {@code weights} drawn
	 * ({@code null}: none).
	 */
	private record Matched(ServerHttpRequest request, Map<String, String> weights, Route route) {
	}

}
