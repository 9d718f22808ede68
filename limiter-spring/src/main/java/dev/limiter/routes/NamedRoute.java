package dev.limiter.routes;

import dev.limiter.spring.RoutePolicy;

/**
 * A handler that names its route and may carry its own budget: a Spring Cloud Gateway
 * route (its id, and the budget of its {@code Limiter} filter). Its requests are counted
 * under its name, which is the policy's pattern (the observation's {@code limiter.route},
 * a {@code scope: route} budget's key). A budget of its own (the route's explicit
 * {@code Limiter=<budget>}) wins over a {@code limiter.routes} rule matching the same
 * path, as the gateway's WebFlux server decides; without one, the first matching rule
 * counts it, else the default budget.
 *
 * <p>
 * The functional routes that serve such handlers say so to the start-up inventory: their
 * {@code accept(RouterFunctions.Visitor)} hands the visitor the attribute
 * {@link #ATTRIBUTE} with the {@code NamedRoute} before the routes it covers, and with
 * any other value after them.
 */
public interface NamedRoute {

	/** The functional-route attribute naming the route of the routes visited next. */
	String ATTRIBUTE = NamedRoute.class.getName();

	/** The route's name (the gateway's route id). */
	String routeName();

	/** The budget its own filter names; {@code null}: none (the default budget). */
	String budget();

	/** Whether each request takes a lease of its budget's concurrency bound. */
	boolean expensive();

	/** How the inventory names the route's handler. */
	default String label() {
		return "gateway route " + routeName();
	}

	/** The route's policy, its name as the pattern. */
	default RoutePolicy policy() {
		return new RoutePolicy(routeName(), budget(), expensive(), false, null);
	}

	/**
	 * A bean that makes {@code NamedRoute} handlers (the gateway's routes). While one
	 * exists, a request a {@code limiter.routes} rule matched still has its handler
	 * looked up: the rule counts it only when no named route with a budget of its own
	 * serves it.
	 */
	interface Source {

	}

}
