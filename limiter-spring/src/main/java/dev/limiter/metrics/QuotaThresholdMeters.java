package dev.limiter.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Decision;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts the {@code notify-at} thresholds decisions and settlements reached (each a
 * {@code QuotaThresholdEvent}) in {@value #QUOTA_THRESHOLDS}, tagged by budget, window
 * and threshold: tags as few as the configured thresholds.
 */
public final class QuotaThresholdMeters implements RateLimitObserver {

	/** notify-at thresholds reached, by budget, window and threshold. */
	public static final String QUOTA_THRESHOLDS = "limiter.quota.thresholds";

	private final MeterRegistry registry;

	private final Map<Tags, Counter> counters = new ConcurrentHashMap<>();

	public QuotaThresholdMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void onDecision(RoutePolicy route, Decision decision, RateLimitOutcome outcome, long storeNanos) {
		if (!decision.degraded()) {
			count(decision.crossings());
		}
	}

	@Override
	public void onSettlementCrossings(List<ThresholdCrossing> crossings, String principalName) {
		count(crossings);
	}

	private void count(List<ThresholdCrossing> crossings) {
		for (ThresholdCrossing crossing : crossings) {
			counters
				.computeIfAbsent(new Tags(crossing.budget(), crossing.window(), crossing.percent()),
						(tags) -> Counter.builder(QUOTA_THRESHOLDS)
							.description("notify-at thresholds reached, once per key, window period and threshold")
							.tag("budget", tags.budget())
							.tag("window", tags.window())
							.tag("threshold", tags.percent() + "%")
							.register(registry))
				.increment();
		}
	}

	private record Tags(String budget, String window, int percent) {
	}

}
