package dev.limiter.spring;

import java.security.Principal;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Gives an authenticated caller a budget the application builds at run time, such as the
 * limits of its tenant's plan row, instead of a configured one. Define one or more beans;
 * they are asked in {@code @Order} after every {@link BudgetSelector} kept the route's
 * budget, and the first non-empty answer wins. Unauthenticated requests are never asked.
 *
 * <p>
 * {@link #select} runs on every request and names the definition by an identity (a tenant
 * id and its plan's version, say); {@link #define} runs once per identity, and the
 * limiter keeps the validated budget while the identity is in its bounded cache
 * ({@code limiter.budget-definitions.max-cached}). Give a changed definition a new
 * identity: an identity already cached keeps the definition it had. An invalid definition
 * (or one {@link #define} fails to build) is logged once, naming this selector, and its
 * callers keep the route's budget.
 */
public interface BudgetDefinitionSelector {

	/**
	 * @param request the request being counted
	 * @param principal the authenticated principal
	 * @param routeBudget the budget the route rules chose
	 * @return the identity of this caller's definition, or empty to keep
	 * {@code routeBudget}
	 */
	Optional<String> select(HttpServletRequest request, Principal principal, String routeBudget);

	/**
	 * The definition of an identity {@link #select} returned; called once while it is
	 * cached.
	 */
	BudgetDefinition define(String identity);

}
