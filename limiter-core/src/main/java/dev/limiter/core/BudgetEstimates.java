package dev.limiter.core;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Whether a route's estimates fit the budget it counts against: the start-up check of
 * each estimate, apart from {@link Budget} so that the budget keeps to its windows and
 * their amounts.
 */
public final class BudgetEstimates {

	private BudgetEstimates() {
	}

	/**
	 * Throws {@link InvalidValueException} ({@link Budget.Field#ESTIMATE}) unless a route
	 * could reserve {@code amount} of {@code unit} before its handler and ever be
	 * admitted: some window of {@code budget} counts {@code unit} (else the estimate
	 * would reserve nothing, and what the handler reports would go nowhere), and
	 * {@code amount} is at most the {@link Window#capacity() capacity} of every such
	 * window (else every request would be refused while each refusal promised a finite
	 * {@code Retry-After}). Checked at start-up for every route's estimates (ADR 0012).
	 */
	public static void check(Budget budget, String unit, long amount) {
		if (Window.REQUESTS.equals(unit)) {
			throw new InvalidValueException(Budget.Field.ESTIMATE, "estimate of '" + unit + "' ",
					"is not an estimate: a window of requests takes one per request (its cost); estimates are for "
							+ "the other units");
		}
		boolean counted = false;
		for (Window window : budget.windows()) {
			if (window.countsRequests() || !window.unit().equals(unit)) {
				continue;
			}
			counted = true;
			if (amount > window.capacity()) {
				throw new InvalidValueException(Budget.Field.ESTIMATE, "estimate " + amount + " of '" + unit + "' ",
						"exceeds the " + window.algorithm().kind().capacityName() + " " + window.capacity()
								+ " of window '" + window.name() + "' of budget '" + budget.name()
								+ "': a request could never be admitted");
			}
		}
		if (!counted) {
			Set<String> units = new LinkedHashSet<>();
			budget.windows().forEach((window) -> units.add(window.unit()));
			throw new InvalidValueException(Budget.Field.ESTIMATE, "estimate of '" + unit + "' ",
					"names a unit that no window of budget '" + budget.name() + "' counts (its windows count " + units
							+ "): it would reserve nothing, and a report of it would settle nothing");
		}
	}

}
