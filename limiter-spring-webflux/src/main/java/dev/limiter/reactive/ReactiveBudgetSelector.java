package dev.limiter.reactive;

import java.security.Principal;
import java.util.Optional;

import org.springframework.web.server.ServerWebExchange;

/**
 * Gives an authenticated principal of a reactive request another budget than its route's
 * (plans, tiers, trial tokens): the reactive counterpart of
 * {@link dev.limiter.spring.BudgetSelector}, asked in order; the first non-empty answer
 * that names a known budget wins, an unknown name is logged and ignored. Never asked for
 * an anonymous caller, who is always on the anonymous budget. Must answer at once: it
 * runs on the event loop.
 */
@FunctionalInterface
public interface ReactiveBudgetSelector {

	/**
	 * @param routeBudget the name of the budget the route would use
	 * @return the budget's name, empty to keep looking
	 */
	Optional<String> select(ServerWebExchange exchange, Principal principal, String routeBudget);

}
