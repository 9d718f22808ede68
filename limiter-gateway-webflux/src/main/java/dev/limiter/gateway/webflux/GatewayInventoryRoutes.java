package dev.limiter.gateway.webflux;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.limiter.reactive.ReactiveInventoryRoutes;
import dev.limiter.reactive.ReactiveRouteInventory;
import dev.limiter.routes.NamedRoute;
import dev.limiter.routes.RouteInventoryBuilder;
import dev.limiter.routes.RouteSource;
import dev.limiter.spring.RoutePolicy;

import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.handler.predicate.PathRoutePredicateFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationListener;

/**
 * The gateway's routes in the limiter's route inventory ({@code /actuator/limiter}), each
 * by the patterns of its {@code Path} predicates ({@code /**} without one), its handler
 * {@code gateway route <id>}: a route carrying {@code Limiter} under its filter's budget
 * (source {@code route filter}; the filter decides before any {@code limiter.routes} rule
 * is read), any other as the application-wide filter counts it (a rule, else the default
 * budget). The routes are read again each time the gateway has refreshed them.
 */
final class GatewayInventoryRoutes implements ReactiveInventoryRoutes, ApplicationListener<RefreshRoutesResultEvent> {

	private final Supplier<RouteLocator> locator;

	private final Supplier<ReactiveRouteInventory> inventory;

	private volatile List<Route> routes;

	GatewayInventoryRoutes(Supplier<RouteLocator> locator, Supplier<ReactiveRouteInventory> inventory) {
		this.locator = locator;
		this.inventory = inventory;
	}

	@Override
	public void onApplicationEvent(RefreshRoutesResultEvent event) {
		if (event.isSuccess() && event.getSource() instanceof RouteLocator refreshed) {
			refreshed.getRoutes().collectList().subscribe((loaded) -> {
				routes = List.copyOf(loaded);
				ReactiveRouteInventory current = inventory.get();
				if (current != null) {
					current.routesChanged();
				}
			});
		}
	}

	@Override
	public void addTo(RouteInventoryBuilder builder) {
		for (Route route : routes()) {
			LimiterGatewayFilter limiter = LimiterGatewayFilter.of(route);
			for (String pattern : pathPatterns(route)) {
				if (limiter != null) {
					GatewayRoute named = new GatewayRoute(route.getId(), limiter.budget(), limiter.expensive());
					builder.addRouteDecidedByItsFilter(List.of(), pattern, named.label(),
							named.policy().withPattern(null), RouteSource.ROUTE_FILTER);
				}
				else {
					builder.addRoute(List.of(), pattern, new GatewayRoute(route.getId(), null, false).label(),
							RoutePolicy.DEFAULT, RouteSource.DEFAULT, true);
				}
			}
		}
	}

	/**
	 * The routes last refreshed; before the first refresh was heard of, what the locator
	 * holds now (a caching locator answers at once, without waiting).
	 */
	private List<Route> routes() {
		List<Route> known = routes;
		if (known != null) {
			return known;
		}
		RouteLocator current = locator.get();
		List<Route> now = new ArrayList<>();
		if (current != null) {
			current.getRoutes().subscribe(now::add);
		}
		return now;
	}

	private static List<String> pathPatterns(Route route) {
		List<String> patterns = new ArrayList<>();
		route.getPredicate().accept((predicate) -> {
			if (predicate.getConfig() instanceof PathRoutePredicateFactory.Config path) {
				patterns.addAll(path.getPatterns());
			}
		});
		return patterns.isEmpty() ? List.of("/**") : patterns;
	}

	/** A gateway route as the inventory names it. */
	private record GatewayRoute(String routeName, String budget, boolean expensive) implements NamedRoute {
	}

}
