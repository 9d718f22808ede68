package dev.limiter.reactive;

import java.security.Principal;
import java.util.Optional;

import dev.limiter.spring.BudgetDefinition;

import org.springframework.web.server.ServerWebExchange;

/**
 * Gives an authenticated caller of a reactive request a budget the application builds at
 * run time (its tenant's plan row): the reactive counterpart of
 * {@link dev.limiter.spring.BudgetDefinitionSelector}, with its semantics. Asked in
 * {@code @Order} after every {@link ReactiveBudgetSelector} kept the route's budget; the
 * first non-empty answer wins; never asked for an anonymous caller.
 *
 * <p>
 * {@link #select} runs on every request, on the event loop: it must answer at once from
 * what the exchange and the principal carry. {@link #define} runs once per identity while
 * the limiter keeps its validated budget in its bounded cache
 * ({@code limiter.budget-definitions.max-cached}); it runs on the request's thread too,
 * so it should build the definition from what it has at hand (a plan table loaded ahead)
 * rather than wait for a database. An invalid definition is logged once, naming this
 * selector, and its callers keep the route's budget.
 */
public interface ReactiveBudgetDefinitionSelector {

	/**
	 * @param principal the authenticated principal
	 * @param routeBudget the budget the route rules chose
	 * @return the identity of this caller's definition, or empty to keep
	 * {@code routeBudget}
	 */
	Optional<String> select(ServerWebExchange exchange, Principal principal, String routeBudget);

	/**
	 * The definition of an identity {@link #select} returned; called once while it is
	 * cached.
	 */
	BudgetDefinition define(String identity);

}
