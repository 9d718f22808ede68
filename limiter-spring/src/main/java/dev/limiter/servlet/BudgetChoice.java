package dev.limiter.servlet;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Budget;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RoutePolicy;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The budget a request is counted against: the anonymous budget for an anonymous caller;
 * otherwise the first known budget a {@link BudgetSelector} names, else a budget a
 * {@code BudgetDefinitionSelector} defines, else the route's budget, else the default.
 */
final class BudgetChoice {

	private static final Log logger = LogFactory.getLog(RateLimitFilter.class);

	private final List<BudgetSelector> selectors;

	private final BudgetDefinitions definitions;

	/**
	 * The choice of each configured budget, made once per budget (and again for the
	 * budget of the same name a refresh brings), so a request allocates nothing here.
	 */
	private final Map<String, Chosen> configured = new ConcurrentHashMap<>();

	BudgetChoice(List<BudgetSelector> selectors, BudgetDefinitions definitions) {
		this.selectors = List.copyOf(selectors);
		this.definitions = definitions;
	}

	/** The budget of this request and the key space its counters live in. */
	Chosen choose(BudgetRegistry budgets, HttpServletRequest request, RoutePolicy route, CallerKey caller) {
		Budget budget = budgetFor(budgets, request, route, caller);
		if (budget == null) {
			Budget routeBudget = routeBudget(budgets, route);
			Chosen defined = definitions.choose(budgets, request, caller.principal(), routeBudget.name());
			return defined != null ? defined : configured(routeBudget);
		}
		return configured(budget);
	}

	private Chosen configured(Budget budget) {
		Chosen chosen = configured.get(budget.name());
		if (chosen == null || chosen.budget() != budget) {
			chosen = new Chosen(budget, null);
			configured.put(budget.name(), chosen);
		}
		return chosen;
	}

	private static Budget routeBudget(BudgetRegistry budgets, RoutePolicy route) {
		return budgets.find(route.budget()).orElseGet(budgets::defaultBudget);
	}

	/**
	 * The configured budget of this request: the anonymous one, a selector's, or
	 * {@code null} when the route's budget stands (and a defined budget may replace it).
	 */
	private Budget budgetFor(BudgetRegistry budgets, HttpServletRequest request, RoutePolicy route, CallerKey caller) {
		if (!caller.authenticated()) {
			return budgets.anonymousBudget();
		}
		if (selectors.isEmpty() && !definitions.any()) {
			return routeBudget(budgets, route);
		}
		Budget routeBudget = routeBudget(budgets, route);
		for (BudgetSelector selector : selectors) {
			Optional<String> selected = selector.select(request, caller.principal(), routeBudget.name());
			if (selected.isPresent()) {
				Optional<Budget> budget = budgets.find(selected.get());
				if (budget.isPresent()) {
					return budget.get();
				}
				logger.warn("BudgetSelector " + selector.getClass().getName() + " chose unknown budget '"
						+ selected.get() + "'; using '" + routeBudget.name() + "'");
			}
		}
		return definitions.any() ? null : routeBudget;
	}

	/**
	 * A budget and its key space.
	 *
	 * @param budget the budget the request counts against
	 * @param keySpace appended to the counter key of a defined budget (its identity),
	 * {@code null} for a configured one
	 */
	record Chosen(Budget budget, String keySpace) {

		String counterKey(String key) {
			return keySpace == null ? key : key + keySpace;
		}

	}

}
