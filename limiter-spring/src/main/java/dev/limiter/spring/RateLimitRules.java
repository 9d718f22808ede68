package dev.limiter.spring;

import java.util.Objects;

/**
 * What the limiter decides a request by that a configuration refresh may replace: the
 * budgets, how each is applied, and the route resolution. Immutable: a refresh makes a
 * whole new one and swaps it into {@link CurrentRateLimitRules}, so a request sees either
 * the old rules or the new ones, never a mix.
 *
 * @param budgets the budgets by name, default and anonymous
 * @param options scope, shadow mode and key-by of every budget
 * @param routes which policy applies to a request
 */
public record RateLimitRules(BudgetRegistry budgets, BudgetOptions options, RouteResolver routes) {

	public RateLimitRules {
		Objects.requireNonNull(budgets, "budgets");
		Objects.requireNonNull(options, "options");
		Objects.requireNonNull(routes, "routes");
	}

}
