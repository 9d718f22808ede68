package dev.limiter.decision;

import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Budget;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RoutePolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The budget a request is counted against, whichever web stack carries it: the anonymous
 * budget for an anonymous caller; otherwise the first known budget a selector names
 * ({@code BudgetSelector}, {@code ReactiveBudgetSelector}), else a budget the
 * {@link BudgetDefinitions} define, else the route's budget, else the default.
 *
 * @param <R> the request the selectors are asked with (the web stack's own)
 */
public final class BudgetChoice<R> {

	private final Log logger;

	private final List<Selector<R>> selectors;

	private final BudgetDefinitions<R> definitions;

	/**
	 * The choice of each configured budget, made once per budget (and again for the
	 * budget of the same name a refresh brings), so a request allocates nothing here.
	 */
	private final Map<String, Chosen> configured = new ConcurrentHashMap<>();

	/**
	 * @param selectors the application's selectors, in order
	 * @param definitions the budgets defined at run time
	 * @param filter the filter whose log says a selector chose an unknown budget
	 */
	public BudgetChoice(List<? extends Selector<R>> selectors, BudgetDefinitions<R> definitions, Class<?> filter) {
		this.selectors = List.copyOf(selectors);
		this.definitions = definitions;
		this.logger = LogFactory.getLog(filter);
	}

	/** The budget of this request and the key space its counters live in. */
	public Chosen choose(BudgetRegistry budgets, R request, RoutePolicy route, CallerKey caller) {
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
	private Budget budgetFor(BudgetRegistry budgets, R request, RoutePolicy route, CallerKey caller) {
		if (!caller.authenticated()) {
			return budgets.anonymousBudget();
		}
		if (selectors.isEmpty() && !definitions.any()) {
			return routeBudget(budgets, route);
		}
		Budget routeBudget = routeBudget(budgets, route);
		for (Selector<R> selector : selectors) {
			Optional<String> selected = selector.select(request, caller.principal(), routeBudget.name());
			if (selected.isPresent()) {
				Optional<Budget> budget = budgets.find(selected.get());
				if (budget.isPresent()) {
					return budget.get();
				}
				logger.warn(selector.description() + " chose unknown budget '" + selected.get() + "'; using '"
						+ routeBudget.name() + "'");
			}
		}
		return definitions.any() ? null : routeBudget;
	}

	/**
	 * One budget selector of the application, asked with its web stack's request.
	 *
	 * @param <R> the request it is asked with
	 */
	public interface Selector<R> {

		/** The name of a configured budget, empty to keep the route's. */
		Optional<String> select(R request, Principal principal, String routeBudget);

		/** What the log names: the selector's kind and the application's class. */
		String description();

	}

	/**
	 * A budget and its key space.
	 *
	 * @param budget the budget the request counts against
	 * @param keySpace appended to the counter key of a defined budget (its identity),
	 * {@code null} for a configured one
	 */
	public record Chosen(Budget budget, String keySpace) {

		/** The counter key of {@code key} in this budget's key space. */
		public String counterKey(String key) {
			return keySpace == null ? key : key + keySpace;
		}

	}

}
