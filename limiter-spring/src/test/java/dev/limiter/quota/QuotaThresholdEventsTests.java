package dev.limiter.quota;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Decision;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Window;
import dev.limiter.metrics.QuotaThresholdMeters;
import dev.limiter.spring.QuotaThresholdEvent;
import dev.limiter.spring.RateLimitOutcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each threshold a decision reached becomes one {@link QuotaThresholdEvent} naming the
 * budget, window, key, principal, threshold, usage, limit and period end, and one count
 * of {@code limiter.quota.thresholds}; a degraded decision (the fallback's count, this
 * instance's alone) publishes and counts nothing.
 */
class QuotaThresholdEventsTests {

	private static final Budget PLAN = Budget.builder("pro")
		.window(Window.calendar("month", 10, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin")))
			.inUnit("tokens")
			.withNotifyAt(NotifyAt.of(List.of(50, 80))))
		.build();

	private static final long NOW = Instant.parse("2024-02-20T12:00:00Z").toEpochMilli();

	private final List<Object> published = new ArrayList<>();

	private final QuotaThresholdEvents events = new QuotaThresholdEvents(published::add);

	private final RateLimitStore store = RateLimitStores.inMemory(100);

	@AfterEach
	void clearRequest() {
		RequestContextHolder.resetRequestAttributes();
	}

	private Decision reserve(long tokens) {
		return store.reserve(PLAN, "p:caller", new long[] { tokens }, false, NOW);
	}

	@Test
	void onDecisionWhenThresholdsWereReachedShouldPublishOneEventEachWithThePrincipal() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.setUserPrincipal(() -> "alice");
		RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));

		events.onDecision(null, reserve(9), RateLimitOutcome.ALLOWED, 0);

		assertThat(published).hasSize(2).allSatisfy((event) -> {
			QuotaThresholdEvent threshold = (QuotaThresholdEvent) event;
			assertThat(threshold.getBudget()).isEqualTo("pro");
			assertThat(threshold.getWindow()).isEqualTo("month");
			assertThat(threshold.getKeyHash()).isEqualTo("p:caller");
			assertThat(threshold.getPrincipalName()).contains("alice");
			assertThat(threshold.getUsage()).isEqualTo(9);
			assertThat(threshold.getLimit()).isEqualTo(10);
			assertThat(threshold.getPeriodEnd()).isEqualTo(Instant.parse("2024-02-29T23:00:00Z"));
		});
		assertThat(published).extracting((event) -> ((QuotaThresholdEvent) event).getThresholdPercent())
			.containsExactly(50, 80);
	}

	@Test
	void onDecisionWhenNoneWasReachedOrTheDecisionIsDegradedShouldPublishAndCountNothing() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		QuotaThresholdMeters meters = new QuotaThresholdMeters(registry);
		Decision none = reserve(1);
		Decision degraded = reserve(8).asDegraded();

		events.onDecision(null, none, RateLimitOutcome.ALLOWED, 0);
		events.onDecision(null, degraded, RateLimitOutcome.ALLOWED, 0);
		meters.onDecision(null, degraded, RateLimitOutcome.ALLOWED, 0);

		assertThat(degraded.crossings()).isNotEmpty();
		assertThat(published).isEmpty();
		assertThat(registry.find(QuotaThresholdMeters.QUOTA_THRESHOLDS).counters()).isEmpty();
	}

	@Test
	void metersWhenThresholdsWereReachedShouldCountEachByBudgetWindowAndThreshold() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		QuotaThresholdMeters meters = new QuotaThresholdMeters(registry);

		meters.onDecision(null, reserve(5), RateLimitOutcome.ALLOWED, 0);
		meters.onDecision(null, reserve(3), RateLimitOutcome.ALLOWED, 0);

		assertThat(registry.get(QuotaThresholdMeters.QUOTA_THRESHOLDS)
			.tags("budget", "pro", "window", "month", "threshold", "50%")
			.counter()
			.count()).isEqualTo(1);
		assertThat(registry.get(QuotaThresholdMeters.QUOTA_THRESHOLDS).tag("threshold", "80%").counter().count())
			.isEqualTo(1);
		assertThat(registry.get(QuotaThresholdMeters.QUOTA_THRESHOLDS).counter().getId().getDescription()).isNotBlank();
	}

}
