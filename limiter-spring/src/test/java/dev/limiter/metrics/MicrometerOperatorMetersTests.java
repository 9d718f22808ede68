package dev.limiter.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Decision;
import dev.limiter.core.Window;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The operator's meters: fail-open admissions by reason, settlement events by outcome,
 * the configurable near-limit threshold and the store timer's histogram.
 */
class MicrometerOperatorMetersTests {

	private static final long NOW = 1_000_000;

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final Window minute = Window.of("minute", 10, Duration.ofMinutes(1));

	private final RoutePolicy route = RoutePolicy.DEFAULT;

	@Test
	void failOpenWhenAdmissionsAreDegradedShouldCountThemByReasonAndStore() {
		MicrometerOperatorMeters meters = new MicrometerOperatorMeters(registry, "redis");
		assertThat(failOpen("fallback")).isZero();
		meters.onDecision(route, admitted(9).asDegraded(), RateLimitOutcome.ALLOWED, 1);
		meters.onDecision(route, admitted(9).asDegraded(), RateLimitOutcome.ALLOWED, 1);
		meters.onDecision(route, admitted(9).asDegraded().asUncounted(), RateLimitOutcome.ALLOWED, 1);
		meters.onDecision(route, admitted(9), RateLimitOutcome.ALLOWED, 1);
		assertThat(failOpen("fallback")).isEqualTo(2);
		assertThat(failOpen("uncounted")).isEqualTo(1);
		assertThat(registry.get(MicrometerOperatorMeters.FAIL_OPEN).counters()).hasSize(2);
	}

	@Test
	void settlementsWhenEventsArriveShouldCountEachByOutcome() {
		MicrometerOperatorMeters meters = new MicrometerOperatorMeters(registry, "redis");
		meters.onSettled("standard", "tokens", 5, 0);
		meters.onSettled("standard", "tokens", 0, 3);
		meters.onSettlementDropped("standard", "minute", "window-ended");
		meters.onSettlementDropped("standard", "minute", "clamped");
		meters.onSettlementFailed("standard", new IllegalStateException());
		assertThat(settlements("settled")).isEqualTo(2);
		assertThat(settlements("dropped")).isEqualTo(1);
		assertThat(settlements("clamped")).isEqualTo(1);
		assertThat(settlements("failed")).isEqualTo(1);
	}

	@Test
	void nearLimitWhenTheThresholdIsConfiguredShouldCountBelowIt() {
		MicrometerRateLimitObserver observer = new MicrometerRateLimitObserver(registry, "memory", 0.5, false);
		observer.onDecision(route, admitted(6), RateLimitOutcome.ALLOWED, 1); // 6 of 10
																				// left
		observer.onDecision(route, admitted(4), RateLimitOutcome.ALLOWED, 1); // 4 of 10
																				// left
		observer.onDecision(route, admitted(1), RateLimitOutcome.ALLOWED, 1);
		assertThat(registry.get(MicrometerRateLimitObserver.NEAR_LIMIT).counter().count()).isEqualTo(2);
		assertThat(registry.get(MicrometerRateLimitObserver.NEAR_LIMIT).counter().getId().getDescription())
			.contains("50 %");
	}

	@Test
	void nearLimitWhenTheDefaultThresholdShouldCountBelowTwentyPercent() {
		MicrometerRateLimitObserver observer = new MicrometerRateLimitObserver(registry, "memory");
		observer.onDecision(route, admitted(2), RateLimitOutcome.ALLOWED, 1);
		observer.onDecision(route, admitted(1), RateLimitOutcome.ALLOWED, 1);
		assertThat(registry.get(MicrometerRateLimitObserver.NEAR_LIMIT).counter().count()).isEqualTo(1);
	}

	@Test
	void nearLimitWhenTheThresholdIsOutOfRangeShouldBeRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MicrometerRateLimitObserver(registry, "memory", 1.0, false));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MicrometerRateLimitObserver(registry, "memory", 0, false));
	}

	@Test
	void storeLatencyWhenTheHistogramIsOnShouldAskForBuckets() {
		List<DistributionStatisticConfig> configured = new ArrayList<>();
		registry.config().meterFilter(new MeterFilter() {

			@Override
			public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
				if (id.getName().equals(MicrometerRateLimitObserver.STORE_LATENCY)) {
					configured.add(config);
				}
				return config;
			}

		});
		new MicrometerRateLimitObserver(registry, "redis", 0.2, true);
		assertThat(configured).singleElement().satisfies((config) -> {
			assertThat(config.isPercentileHistogram()).isTrue();
			assertThat(config.getMinimumExpectedValueAsDouble()).isEqualTo(100_000.0);
			assertThat(config.getMaximumExpectedValueAsDouble()).isEqualTo(5e9);
		});
	}

	private Decision admitted(long remaining) {
		return Decision.of("standard", NOW,
				List.of(BoundVerdict.window(minute, minute.limit() - remaining, NOW + 60_000, false)), null);
	}

	private double failOpen(String reason) {
		return registry.get(MicrometerOperatorMeters.FAIL_OPEN)
			.tags("store", "redis", "reason", reason)
			.counter()
			.count();
	}

	private double settlements(String outcome) {
		return registry.get(MicrometerOperatorMeters.SETTLEMENTS)
			.tags("budget", "standard", "outcome", outcome)
			.counter()
			.count();
	}

}
