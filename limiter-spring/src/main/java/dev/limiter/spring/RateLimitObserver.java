package dev.limiter.spring;

import dev.limiter.core.Decision;

/**
 * Told of every request the limiter handles, on the request thread, after the decision
 * and before the handler runs. Implementations must be fast and must not throw; the
 * meters and the actuator endpoint's totals are observers. Define beans of this type to
 * add your own; they are called in {@code @Order}.
 */
public interface RateLimitObserver {

	/**
	 * A request was decided by the store.
	 * @param route the route policy that applied (its {@code pattern} is masked, never
	 * the raw path)
	 * @param decision the store's decision
	 * @param outcome {@link RateLimitOutcome#ALLOWED}, {@link RateLimitOutcome#REFUSED}
	 * or {@link RateLimitOutcome#SHADOW_REFUSED}
	 * @param storeNanos how long the store call took
	 */
	default void onDecision(RoutePolicy route, Decision decision, RateLimitOutcome outcome, long storeNanos) {
	}

	/** A request was let through uncounted because its route is exempt. */
	default void onExempt(RoutePolicy route) {
	}

	/**
	 * A concurrency lease that a decision took was handed back (or given up: it expires
	 * by itself) when its request ended.
	 * @param budget the lease's budget
	 */
	default void onLeaseReleased(String budget) {
	}

}
