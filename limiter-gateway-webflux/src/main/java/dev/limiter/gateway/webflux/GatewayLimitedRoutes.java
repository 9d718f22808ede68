package dev.limiter.gateway.webflux;

import java.util.function.Supplier;

import dev.limiter.reactive.ReactiveCountedFurtherOn;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.web.server.ServerWebExchange;

/**
 * Tells the application-wide {@link ReactiveRateLimitFilter} which requests a gateway
 * route's {@code Limiter} filter counts: the request's route is the first whose
 * predicates match, as the gateway's own handler mapping finds it; when that route
 * carries {@code Limiter}, the application-wide filter leaves the request to it. Every
 * other request (a route without {@code Limiter}, the application's own handlers) is
 * counted by the application-wide filter as before.
 *
 * <p>
 * The route is asked of the gateway's {@link RouteMatchedOnceHandlerMapping}, whose
 * answer the gateway's dispatcher reuses, so the predicates run once per request. Only
 * when the application replaced the gateway's mapping with its own are the routes looked
 * up here, and their predicates run again by the gateway.
 */
final class GatewayLimitedRoutes implements ReactiveCountedFurtherOn {

	private final Supplier<RouteLocator> routes;

	private final Supplier<RoutePredicateHandlerMapping> mapping;

	/** The mapping once found: looking it up in the bean factory per request costs. */
	private volatile RouteMatchedOnceHandlerMapping matchedOnce;

	private volatile boolean mappingAsked;

	/**
	 * @param routes the gateway's routes, asked for at the first request
	 * @param mapping the gateway's handler mapping, asked for at the first request
	 */
	GatewayLimitedRoutes(Supplier<RouteLocator> routes, Supplier<RoutePredicateHandlerMapping> mapping) {
		this.routes = routes;
		this.mapping = mapping;
	}

	@Override
	public Mono<Boolean> countedFurtherOn(ServerWebExchange exchange) {
		return routeOf(exchange).map(GatewayLimitedRoutes::carriesLimiter).defaultIfEmpty(false);
	}

	private Mono<Route> routeOf(ServerWebExchange exchange) {
		RouteMatchedOnceHandlerMapping matchedOnce = matchedOnce();
		if (matchedOnce != null) {
			return matchedOnce.matchedRoute(exchange);
		}
		RouteLocator locator = routes.get();
		if (locator == null) {
			return Mono.empty();
		}
		return locator.getRoutes().concatMap((route) -> Mono.defer(() -> {
			exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_PREDICATE_ROUTE_ATTR, route.getId());
			return Mono.from(route.getPredicate().apply(exchange));
		}).onErrorReturn(false).filter(Boolean::booleanValue).map((matched) -> route)).next();
	}

	private RouteMatchedOnceHandlerMapping matchedOnce() {
		if (!mappingAsked) {
			RoutePredicateHandlerMapping found = mapping.get();
			if (found != null) {
				matchedOnce = (found instanceof RouteMatchedOnceHandlerMapping ours) ? ours : null;
				mappingAsked = true;
			}
		}
		return matchedOnce;
	}

	static boolean carriesLimiter(Route route) {
		return LimiterGatewayFilter.of(route) != null;
	}

}
