package dev.limiter.reactive;

import dev.limiter.routes.RouteInventoryBuilder;

/**
 * Routes a handler mapping serves that {@link ReactiveRouteInventory} cannot walk itself
 * (a Spring Cloud Gateway's routes): each bean of this type adds them to the inventory as
 * it is built. One whose routes change (the gateway's configuration refreshed) tells the
 * inventory through {@link ReactiveRouteInventory#routesChanged()}.
 */
@FunctionalInterface
public interface ReactiveInventoryRoutes {

	/** Adds the routes, each under the policy a request to it is counted by. */
	void addTo(RouteInventoryBuilder builder);

}
