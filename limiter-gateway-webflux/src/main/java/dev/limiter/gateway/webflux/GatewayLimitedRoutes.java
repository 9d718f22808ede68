package dev.limiter.gateway.webflux;

import java.util.function.Supplier;

import dev.limiter.reactive.ReactiveCountedFurtherOn;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
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
 */
final class GatewayLimitedRoutes implements ReactiveCountedFurtherOn {

	private final Supplier<RouteLocator> routes;

	/**
	 * @param routes the gateway's routes, asked for at the first request
	 */
	GatewayLimitedRoutes(Supplier<RouteLocator> routes) {
		this.routes = routes;
	}

	@Override
	public Mono<Boolean> countedFurtherOn(ServerWebExchange exchange) {
		RouteLocator locator = routes.get();
		if (locator == null) {
			return Mono.just(false);
		}
		return locator.getRoutes().concatMap((route) -> Mono.defer(() -> {
			exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_PREDICATE_ROUTE_ATTR, route.getId());
			return Mono.from(route.getPredicate().apply(exchange));
		}).onErrorReturn(false).filter(Boolean::booleanValue).map((matched) -> route))
			.next()
			.map(GatewayLimitedRoutes::carriesLimiter)
			.defaultIfEmpty(false);
	}

	static boolean carriesLimiter(Route route) {
		for (GatewayFilter filter : route.getFilters()) {
			if (isLimiter(filter)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isLimiter(GatewayFilter filter) {
		GatewayFilter unwrapped = (filter instanceof OrderedGatewayFilter ordered) ? ordered.getDelegate() : filter;
		return unwrapped instanceof LimiterGatewayFilter;
	}

}
