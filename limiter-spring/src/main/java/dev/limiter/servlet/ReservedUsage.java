package dev.limiter.servlet;

import dev.limiter.core.Budget;
import dev.limiter.spring.RateLimitUsage;
import jakarta.servlet.ServletRequest;

/**
 * What an admitted request reserved units of, held as request attributes: its
 * {@link RateLimitUsage} and the {@link Budget} the usage settles against, which a report
 * made outside the application (a gateway's downstream response header) needs.
 */
public final class ReservedUsage {

	/** The request attribute holding the budget a request's usage settles against. */
	public static final String BUDGET_ATTRIBUTE = ReservedUsage.class.getName() + ".BUDGET";

	private ReservedUsage() {
	}

	static void hold(ServletRequest request, RateLimitUsage usage, Budget budget) {
		request.setAttribute(RateLimitUsage.ATTRIBUTE, usage);
		request.setAttribute(BUDGET_ATTRIBUTE, budget);
	}

	/**
	 * The budget {@code request}'s usage settles against; {@code null} when it reserved
	 * nothing.
	 */
	public static Budget budgetOf(ServletRequest request) {
		return (request.getAttribute(BUDGET_ATTRIBUTE) instanceof Budget budget) ? budget : null;
	}

}
