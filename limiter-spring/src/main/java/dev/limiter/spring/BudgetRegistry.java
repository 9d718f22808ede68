package dev.limiter.spring;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.limiter.core.Budget;

/**
 * The resolved budgets by name, plus which of them authenticated requests fall to by
 * default and which one counts requests without a credential. Immutable.
 */
public final class BudgetRegistry {

	private final Map<String, Budget> budgets;

	private final String defaultBudget;

	private final String anonymousBudget;

	public BudgetRegistry(Collection<Budget> budgets, String defaultBudget, String anonymousBudget) {
		Map<String, Budget> byName = new LinkedHashMap<>();
		for (Budget budget : budgets) {
			byName.put(budget.name(), budget);
		}
		this.budgets = Collections.unmodifiableMap(byName);
		this.defaultBudget = requireKnown(defaultBudget, "default");
		this.anonymousBudget = requireKnown(anonymousBudget, "anonymous");
	}

	private String requireKnown(String name, String role) {
		Objects.requireNonNull(name, role + " budget");
		if (!budgets.containsKey(name)) {
			throw new IllegalArgumentException(
					"the " + role + " budget '" + name + "' is not one of " + budgets.keySet());
		}
		return name;
	}

	public Optional<Budget> find(String name) {
		return Optional.ofNullable(name).map(budgets::get);
	}

	/**
	 * The budget called {@code name}; throws {@link IllegalArgumentException} when there
	 * is none.
	 */
	public Budget get(String name) {
		return find(name).orElseThrow(() -> new IllegalArgumentException("no budget named '" + name + "'"));
	}

	public Budget defaultBudget() {
		return budgets.get(defaultBudget);
	}

	public Budget anonymousBudget() {
		return budgets.get(anonymousBudget);
	}

	/** Every budget, in declaration order. */
	public Collection<Budget> all() {
		return budgets.values();
	}

}
