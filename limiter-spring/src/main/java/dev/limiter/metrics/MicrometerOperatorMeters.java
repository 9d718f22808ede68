package dev.limiter.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Decision;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The meters an operator asks for during an outage and after a release, beside
 * {@link MicrometerRateLimitObserver}'s: admissions decided while the store could not
 * answer ({@value #FAIL_OPEN}, by store and reason) and settlement events by outcome
 * ({@value #SETTLEMENTS}). Tags are bounded: budget names from configuration, the rest
 * from fixed sets.
 */
public class MicrometerOperatorMeters implements RateLimitObserver {

	/**
	 * Counter of admissions decided while the store could not answer, by store and
	 * reason.
	 */
	public static final String FAIL_OPEN = "limiter.fail.open";

	/**
	 * Counter of settlement events by budget and outcome ({@code settled},
	 * {@code clamped}, {@code dropped}, {@code failed}).
	 */
	public static final String SETTLEMENTS = "limiter.settlements";

	/** A degraded admission the in-process fallback counted. */
	public static final String FALLBACK = "fallback";

	/** A degraded admission nothing counted (the failure policy's last resort). */
	public static final String UNCOUNTED = "uncounted";

	/** The drop reason a settlement engine gives a delta it clamped. */
	static final String CLAMPED = "clamped";

	private final MeterRegistry registry;

	private final String storeName;

	private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();

	public MicrometerOperatorMeters(MeterRegistry registry, String storeName) {
		this.registry = registry;
		this.storeName = storeName;
		// present from the start, so that a dashboard's rate reads 0 rather than nothing
		failOpen(FALLBACK);
		failOpen(UNCOUNTED);
	}

	@Override
	public void onDecision(RoutePolicy route, Decision decision, RateLimitOutcome outcome, long storeNanos) {
		if (decision.allowed() && decision.degraded()) {
			failOpen(decision.counted() ? FALLBACK : UNCOUNTED).increment();
		}
	}

	@Override
	public void onSettled(String budget, String unit, long charged, long refunded) {
		settlement(budget, "settled").increment();
	}

	@Override
	public void onSettlementDropped(String budget, String window, String reason) {
		settlement(budget, CLAMPED.equals(reason) ? CLAMPED : "dropped").increment();
	}

	@Override
	public void onSettlementFailed(String budget, Throwable failure) {
		settlement(budget, "failed").increment();
	}

	private Counter failOpen(String reason) {
		return counters.computeIfAbsent(List.of(FAIL_OPEN, reason),
				(tags) -> Counter.builder(FAIL_OPEN)
					.description("Admissions decided while the store could not answer, by store and reason "
							+ "(fallback: counted by the in-process fallback; uncounted: admitted uncounted)")
					.tag("store", storeName)
					.tag("reason", reason)
					.register(registry));
	}

	private Counter settlement(String budget, String outcome) {
		return counters.computeIfAbsent(List.of(SETTLEMENTS, budget, outcome),
				(tags) -> Counter.builder(SETTLEMENTS)
					.description("Settlement events by budget and outcome (settled: a unit's settlement applied; "
							+ "clamped, dropped: a window's delta not applied; failed: a settlement the store could "
							+ "not apply)")
					.tag("budget", budget)
					.tag("outcome", outcome)
					.register(registry));
	}

}
