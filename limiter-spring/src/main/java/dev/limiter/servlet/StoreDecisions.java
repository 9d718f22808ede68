package dev.limiter.servlet;

import java.time.Clock;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.resilience.FailurePolicy;
import dev.limiter.resilience.OutageLog;

/**
 * The store's decision of one request; a store that fails here has no fail-open wrapper
 * (an application's own store, or the in-memory one), so the {@link FailurePolicy}'s last
 * resort applies: admitted uncounted, and the outage logged once.
 */
final class StoreDecisions {

	private final RateLimitStore store;

	private final Clock clock;

	private final OutageLog outageLog;

	/**
	 * @param loggerName the logger of the outage's lines, whose facts are key-value pairs
	 */
	StoreDecisions(RateLimitStore store, Clock clock, String loggerName) {
		this.store = store;
		this.clock = clock;
		this.outageLog = FailurePolicy.uncountedAdmissionsLog(loggerName);
	}

	/**
	 * Takes {@code amounts} per window when the budget counts units, else one request.
	 * @throws StoreUnavailableException when the budget fails closed and the store cannot
	 * answer
	 */
	Decision take(Budget budget, String key, boolean expensive, long[] amounts) {
		long now = clock.millis();
		try {
			Decision decision = (amounts != null) ? store.reserve(budget, key, amounts, expensive, now)
					: store.take(budget, key, 1, expensive, now);
			outageLog.recovered(store.name());
			return decision;
		}
		catch (StoreUnavailableException unavailable) {
			throw unavailable;
		}
		catch (RuntimeException ex) {
			outageLog.degraded(store.name(), ex);
			return FailurePolicy.uncounted(budget, now);
		}
	}

}
