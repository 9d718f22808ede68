package dev.limiter.decision;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

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
public final class StoreDecisions {

	private final RateLimitStore store;

	private final Clock clock;

	private final OutageLog outageLog;

	/**
	 * @param loggerName the logger of the outage's lines, whose facts are key-value pairs
	 */
	public StoreDecisions(RateLimitStore store, Clock clock, String loggerName) {
		this.store = store;
		this.clock = clock;
		this.outageLog = FailurePolicy.uncountedAdmissionsLog(loggerName);
	}

	/**
	 * Takes {@code amounts} per window when the budget counts units, else one request.
	 * @throws StoreUnavailableException when the budget fails closed and the store cannot
	 * answer
	 */
	public Decision take(Budget budget, String key, boolean expensive, long[] amounts) {
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

	/**
	 * {@link #take} for a caller that must not wait (a reactive request): the store's
	 * {@code takeAsync} / {@code reserveAsync}, under the same last resort.
	 * @return completes with the decision, or exceptionally with a
	 * {@link StoreUnavailableException} when the budget fails closed and the store cannot
	 * answer
	 */
	public CompletionStage<Decision> takeAsync(Budget budget, String key, boolean expensive, long[] amounts) {
		long now = clock.millis();
		CompletionStage<Decision> call;
		try {
			call = (amounts != null) ? store.reserveAsync(budget, key, amounts, expensive, now)
					: store.takeAsync(budget, key, 1, expensive, now);
		}
		catch (RuntimeException ex) {
			call = CompletableFuture.failedFuture(ex);
		}
		return call.handle((decision, failure) -> {
			if (failure == null) {
				outageLog.recovered(store.name());
				return decision;
			}
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			if (cause instanceof StoreUnavailableException unavailable) {
				throw unavailable;
			}
			outageLog.degraded(store.name(), cause);
			return FailurePolicy.uncounted(budget, now);
		});
	}

}
