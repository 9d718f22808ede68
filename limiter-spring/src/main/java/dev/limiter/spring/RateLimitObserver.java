package dev.limiter.spring;

import java.util.List;

import dev.limiter.core.Decision;
import dev.limiter.core.ThresholdCrossing;

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
	 * A request reserved {@code amount} of {@code unit} before its handler ran (ADR
	 * 0012).
	 */
	default void onReserved(String budget, String unit, long amount) {
	}

	/**
	 * A reservation was settled: {@code charged} units beyond the estimate, or
	 * {@code refunded} units of it given back (one of the two is 0).
	 */
	default void onSettled(String budget, String unit, long charged, long refunded) {
	}

	/**
	 * What was used, for one window, was dropped instead of settled, for a {@code reason}
	 * from a fixed set: {@code window-ended} (a settlement's delta whose window instance
	 * had passed), {@code reported-after-end} (a report made after its request's
	 * settlement was sent), {@code unit-not-counted} (a report of a unit no window of the
	 * budget counts; {@code window} is then {@code none}, as for a late report of such a
	 * unit), {@code clamped} (a report above the window's {@code max-report}: the window
	 * counted its maximum, the rest is dropped).
	 */
	default void onSettlementDropped(String budget, String window, String reason) {
	}

	/**
	 * A settlement moved a key's usage across {@code notify-at} thresholds: decided by
	 * the store step that applied it, once per key, window period and threshold across
	 * every instance sharing the store (no later decision reports them again). Called
	 * when the store's answer arrives, after the request ended, on the thread that answer
	 * arrived on (a Redis client's event loop): never block here. Not called for a
	 * settlement the degraded fallback applied.
	 * @param crossings the thresholds reached, never empty
	 * @param principalName the name of the authenticated principal of the request that
	 * settled, {@code null} when none
	 */
	default void onSettlementCrossings(List<ThresholdCrossing> crossings, String principalName) {
	}

	/** A settlement could not be applied: the store failed or did not answer in time. */
	default void onSettlementFailed(String budget, Throwable failure) {
	}

	/**
	 * A concurrency lease that a decision took was handed back (or given up: it expires
	 * by itself) when its request ended.
	 * @param budget the lease's budget
	 */
	default void onLeaseReleased(String budget) {
	}

}
