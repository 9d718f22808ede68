package dev.limiter.resilience;

import java.util.List;
import java.util.Set;

import dev.limiter.core.FailOpenRateLimitStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.StoreModeListener;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * Turns a remote store into the one the limiter uses: behind the {@code limiter} circuit
 * breaker, failing open onto a bounded in-process fallback, failing closed for the
 * budgets that ask to. Remote store auto-configurations (Redis) call {@link #protect};
 * the in-memory store needs none of it.
 */
public class StoreFailover {

	private final CircuitBreaker breaker;

	private final int fallbackMaxKeys;

	private final Set<String> failClosedBudgets;

	private final List<StoreModeListener> listeners;

	public StoreFailover(CircuitBreaker breaker, int fallbackMaxKeys, Set<String> failClosedBudgets,
			List<StoreModeListener> listeners) {
		this.breaker = breaker;
		this.fallbackMaxKeys = fallbackMaxKeys;
		this.failClosedBudgets = Set.copyOf(failClosedBudgets);
		this.listeners = List.copyOf(listeners);
	}

	public FailOpenRateLimitStore protect(RateLimitStore remote) {
		long closedRetryAfter = breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1);
		CircuitBreakingRateLimitStore guarded = new CircuitBreakingRateLimitStore(remote, breaker);
		return new FailOpenRateLimitStore(guarded, fallbackMaxKeys, budget -> failClosedBudgets.contains(budget.name()),
				closedRetryAfter, new StoreModeListener() {
					@Override
					public void degraded(String store, Throwable cause) {
						listeners.forEach(l -> l.degraded(store, cause));
					}

					@Override
					public void recovered(String store) {
						listeners.forEach(l -> l.recovered(store));
					}
				}, guarded::settled);
	}

	public CircuitBreaker circuitBreaker() {
		return breaker;
	}

}
