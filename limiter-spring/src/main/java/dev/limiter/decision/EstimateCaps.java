package dev.limiter.decision;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Budget;
import dev.limiter.core.Window;
import dev.limiter.spring.RoutePolicy;
import org.apache.commons.logging.Log;

/**
 * Warns once per budget, route and window when a route's estimate is larger than a window
 * of the budget chosen for the request can hold (a selector's, a definition's, the
 * anonymous budget: none is checked against the route at start-up), and the reservation
 * is capped at that window's capacity ({@link Budget#reservedAmounts}; ADR 0012): bad
 * configuration, not a store outage.
 */
public final class EstimateCaps {

	/**
	 * Warnings remembered at most: a definition selector may build many budgets, and past
	 * this many the WARN is not repeated but nothing grows.
	 */
	static final int MAX_REMEMBERED = 1_000;

	private final Log logger;

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	public EstimateCaps(Log logger) {
		this.logger = logger;
	}

	/** Warns, the first time, if {@code budget} caps one of the route's estimates. */
	public void check(RoutePolicy route, Budget budget) {
		Map<String, Long> estimates = route.estimates();
		Window capped = budget.cappedWindow(estimates).orElse(null);
		if (capped == null || warned.size() >= MAX_REMEMBERED) {
			return;
		}
		String routeName = (route.pattern() != null) ? route.pattern() : "(default)";
		if (warned.add(budget.name() + '\u0000' + routeName + '\u0000' + capped.name())) {
			logger.warn("Route '" + routeName + "' estimates " + estimates.get(capped.unit()) + " " + capped.unit()
					+ " but window '" + capped.name() + "' of budget '" + budget.name()
					+ "' (chosen for the request, not checked at start-up) holds " + capped.capacity() + "; reserving "
					+ capped.capacity() + " and charging the amount the handler reports");
		}
	}

}
