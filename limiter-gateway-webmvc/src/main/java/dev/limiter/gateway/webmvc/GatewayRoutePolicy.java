package dev.limiter.gateway.webmvc;

import dev.limiter.routes.NamedRoute;

/**
 * A gateway route as the limiter counts it: its id and what its {@code Limiter} filter
 * names.
 *
 * @param routeName the gateway's route id
 * @param budget the budget of its {@code Limiter} filter; {@code null} without one
 * @param expensive whether each request takes a lease of the budget's concurrency bound
 */
public record GatewayRoutePolicy(String routeName, String budget, boolean expensive) implements NamedRoute {

}
