package dev.limiter.routes;

/**
 * The route inventory of the application's web stack, whichever it is: on Spring MVC
 * {@link RouteInventoryCheck}, on WebFlux
 * {@code dev.limiter.reactive.ReactiveRouteInventory}. What reads the inventory without
 * caring which stack serves the routes (the OpenAPI document) asks this.
 */
@FunctionalInterface
public interface CurrentRouteInventory {

	/** The inventory under the rules in force. */
	RouteInventory inventory();

}
