package dev.limiter.spring;

import java.security.Principal;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Gives an authenticated principal another budget than its route's: plans, tiers, a trial
 * token. Define one or more beans of this type; they are asked in {@code @Order}, the
 * first non-empty answer wins, and an empty answer from all keeps the route's budget.
 * Unauthenticated requests are never asked: they always use the anonymous budget.
 *
 * <p>
 * The answer must name a configured budget ({@code limiter.budgets.<name>}); an unknown
 * name is logged and ignored rather than failing the request.
 */
@FunctionalInterface
public interface BudgetSelector {

	/**
	 * @param request the request being counted
	 * @param principal the authenticated principal (Spring Security's
	 * {@code Authentication} when present)
	 * @param routeBudget the budget the route rules chose
	 * @return the budget to count this request against instead, or empty to keep
	 * {@code routeBudget}
	 */
	Optional<String> select(HttpServletRequest request, Principal principal, String routeBudget);

}
