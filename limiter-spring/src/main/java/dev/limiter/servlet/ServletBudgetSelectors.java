package dev.limiter.servlet;

import java.security.Principal;
import java.util.List;
import java.util.Optional;

import dev.limiter.decision.BudgetChoice;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.spring.BudgetDefinition;
import dev.limiter.spring.BudgetDefinitionSelector;
import dev.limiter.spring.BudgetSelector;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The application's {@link BudgetSelector}s and {@link BudgetDefinitionSelector}s as the
 * stack-neutral {@link BudgetChoice} asks them, with a servlet request.
 */
public final class ServletBudgetSelectors {

	private ServletBudgetSelectors() {
	}

	/**
	 * The budgets {@code selectors} define, cached and bounded: what
	 * {@link RateLimitFilterBuilder#definitions} takes.
	 * @param maxCached {@code limiter.budget-definitions.max-cached}
	 */
	public static BudgetDefinitions<HttpServletRequest> definitions(List<BudgetDefinitionSelector> selectors,
			int maxCached) {
		return new BudgetDefinitions<>(selectors.stream().map(Defining::new).toList(), maxCached,
				RateLimitFilter.class);
	}

	static List<BudgetChoice.Selector<HttpServletRequest>> of(List<BudgetSelector> selectors) {
		return selectors.stream().<BudgetChoice.Selector<HttpServletRequest>>map(Selecting::new).toList();
	}

	private record Selecting(BudgetSelector selector) implements BudgetChoice.Selector<HttpServletRequest> {

		@Override
		public Optional<String> select(HttpServletRequest request, Principal principal, String routeBudget) {
			return selector.select(request, principal, routeBudget);
		}

		@Override
		public String description() {
			return "BudgetSelector " + selector.getClass().getName();
		}

	}

	private record Defining(
			BudgetDefinitionSelector selector) implements BudgetDefinitions.Selector<HttpServletRequest> {

		@Override
		public Optional<String> select(HttpServletRequest request, Principal principal, String routeBudget) {
			return selector.select(request, principal, routeBudget);
		}

		@Override
		public BudgetDefinition define(String identity) {
			return selector.define(identity);
		}

		@Override
		public String description() {
			return "BudgetDefinitionSelector " + selector.getClass().getName();
		}

	}

}
