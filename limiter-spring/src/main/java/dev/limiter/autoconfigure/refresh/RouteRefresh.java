package dev.limiter.autoconfigure.refresh;

import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.spring.RouteResolver;

/**
 * Rebuilds the route resolution (and, with Spring MVC, the route inventory) for refreshed
 * settings, checking them as start-up does before anything is put in force.
 */
@FunctionalInterface
public interface RouteRefresh {

	/**
	 * @param next the refreshed settings
	 * @param current the resolver in force
	 * @return the resolver for {@code next} and what puts the rest in force; throws (a
	 * {@code RouteInventoryException}, say) when {@code next} must be refused
	 */
	Prepared prepare(LimiterSettings next, RouteResolver current);

	/**
	 * A checked, not yet installed, route resolution.
	 *
	 * @param routes the resolver the new rules use
	 * @param install puts the rest (the inventory) in force
	 */
	record Prepared(RouteResolver routes, Runnable install) {
	}

}
