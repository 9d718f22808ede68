package dev.limiter.servlet;

import java.util.List;
import java.util.Optional;

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
 * otherwise the first known budget a {@link BudgetSelector} names, else the route's
 * budget, else the default.
 */
final class BudgetChoice {

	private static final Log logger = LogFactory.getLog(RateLimitFilter.class);

	private final List<BudgetSelector> selectors;

	BudgetChoice(List<BudgetSelector> selectors) {
		this.selectors = List.copyOf(selectors);
	}

	Budget budgetFor(BudgetRegistry budgets, HttpServletRequest request, RoutePolicy route, CallerKey caller) {
		if (!caller.authenticated()) {
			return budgets.anonymousBudget();
		}
		Budget routeBudget = budgets.find(route.budget()).orElseGet(budgets::defaultBudget);
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
		return routeBudget;
	}

}
