package dev.limiter.reactive;

import java.security.Principal;
import java.util.List;
import java.util.Optional;

import dev.limiter.decision.BudgetChoice;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.spring.BudgetDefinition;

import org.springframework.web.server.ServerWebExchange;

/**
 * The application's {@link ReactiveBudgetSelector}s and
 * {@link ReactiveBudgetDefinitionSelector}s as the stack-neutral {@link BudgetChoice}
 * asks them, with the exchange.
 */
public final class ReactiveBudgetSelectors {

	private ReactiveBudgetSelectors() {
	}

	/**
	 * The budgets {@code selectors} define, cached and bounded: what
	 * {@link ReactiveRateLimitFilterBuilder#definitions} takes.
	 * @param maxCached {@code limiter.budget-definitions.max-cached}
	 */
	public static BudgetDefinitions<ServerWebExchange> definitions(List<ReactiveBudgetDefinitionSelector> selectors,
			int maxCached) {
		return new BudgetDefinitions<>(selectors.stream().map(Defining::new).toList(), maxCached,
				ReactiveRateLimitFilter.class);
	}

	static List<BudgetChoice.Selector<ServerWebExchange>> of(List<ReactiveBudgetSelector> selectors) {
		return selectors.stream().<BudgetChoice.Selector<ServerWebExchange>>map(Selecting::new).toList();
	}

	private record Selecting(ReactiveBudgetSelector selector) implements BudgetChoice.Selector<ServerWebExchange> {

		@Override
		public Optional<String> select(ServerWebExchange exchange, Principal principal, String routeBudget) {
			return selector.select(exchange, principal, routeBudget);
		}

		@Override
		public String description() {
			return "ReactiveBudgetSelector " + selector.getClass().getName();
		}

	}

	private record Defining(
			ReactiveBudgetDefinitionSelector selector) implements BudgetDefinitions.Selector<ServerWebExchange> {

		@Override
		public Optional<String> select(ServerWebExchange exchange, Principal principal, String routeBudget) {
			return selector.select(exchange, principal, routeBudget);
		}

		@Override
		public BudgetDefinition define(String identity) {
			return selector.define(identity);
		}

		@Override
		public String description() {
			return "ReactiveBudgetDefinitionSelector " + selector.getClass().getName();
		}

	}

}
