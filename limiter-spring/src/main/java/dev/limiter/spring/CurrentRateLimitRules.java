package dev.limiter.spring;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The {@link RateLimitRules} in force. The filter reads it once per request, so a request
 * in flight finishes on the rules it started with; {@link #replace} makes the next
 * requests use new ones at once.
 */
public final class CurrentRateLimitRules implements Supplier<RateLimitRules> {

	private volatile RateLimitRules rules;

	public CurrentRateLimitRules(RateLimitRules rules) {
		this.rules = Objects.requireNonNull(rules, "rules");
	}

	@Override
	public RateLimitRules get() {
		return rules;
	}

	/** The budgets in force. */
	public BudgetRegistry budgets() {
		return rules.budgets();
	}

	/** Puts {@code next} in force for every request that starts from now on. */
	public void replace(RateLimitRules next) {
		this.rules = Objects.requireNonNull(next, "rules");
	}

}
