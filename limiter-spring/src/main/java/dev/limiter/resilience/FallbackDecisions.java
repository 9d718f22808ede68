package dev.limiter.resilience;

import java.util.Objects;
import java.util.function.Predicate;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.InProcessRateLimitStore;
import dev.limiter.core.StoreUnavailableException;

/**
 * What a {@link FailOpenRateLimitStore} decides once its authoritative store failed,
 * timed out or was not called (the breaker open), for a call waited for and for one
 * answered later alike: a fail-closed budget's {@link StoreUnavailableException}, else
 * the bounded in-process fallback's decision, degraded, its lease issued by the fallback,
 * else {@link FailurePolicy#uncounted uncounted}.
 */
final class FallbackDecisions {

	private final InProcessRateLimitStore fallback;

	private final Predicate<Budget> failsClosed;

	private final long closedRetryAfterMillis;

	FallbackDecisions(InProcessRateLimitStore fallback, Predicate<Budget> failsClosed, long closedRetryAfterMillis) {
		this.fallback = Objects.requireNonNull(fallback, "fallback");
		this.failsClosed = Objects.requireNonNull(failsClosed, "failsClosed");
		this.closedRetryAfterMillis = closedRetryAfterMillis;
	}

	/**
	 * {@code amounts} per window when reserving, else {@code cost} from each.
	 * @throws StoreUnavailableException for a fail-closed budget
	 */
	Decision decide(RuntimeException failure, Budget budget, String key, long cost, long[] amounts, boolean expensive,
			long nowMillis) {
		if (failsClosed.test(budget)) {
			throw new StoreUnavailableException(budget.name(), closedRetryAfterMillis, failure);
		}
		try {
			Decision degraded = (amounts != null) ? fallback.reserve(budget, key, amounts, expensive, nowMillis)
					: fallback.take(budget, key, cost, expensive, nowMillis);
			return degraded.asDegraded().withLeaseIssuedBy(fallback);
		}
		catch (RuntimeException fallbackFailure) {
			fallbackFailure.addSuppressed(failure);
			return FailurePolicy.uncounted(budget, nowMillis);
		}
	}

}
