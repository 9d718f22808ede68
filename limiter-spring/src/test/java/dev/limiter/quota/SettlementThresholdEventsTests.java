package dev.limiter.quota;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.LeaseRenewer;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Reservation;
import dev.limiter.core.Window;
import dev.limiter.decision.AdmissionEnds;
import dev.limiter.decision.RateLimitObservers;
import dev.limiter.metrics.QuotaThresholdMeters;
import dev.limiter.spring.QuotaThresholdEvent;
import dev.limiter.spring.RateLimitUsage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A settlement that moves a key's usage across a {@code notify-at} threshold is reported
 * by that settlement: when the store's answer arrives, the request's end hands the
 * crossings to the observers, which publish one {@link QuotaThresholdEvent} each (with
 * the principal of the request that settled, on the publisher's own thread, never the
 * store's) and count them; the key's next decision does not report them again, and a
 * degraded settlement publishes nothing.
 */
class SettlementThresholdEventsTests {

	private static final Budget PLAN = Budget.builder("pro")
		.window(Window.of("hour", 100, Duration.ofHours(1)).inUnit("tokens").withNotifyAt(NotifyAt.of(List.of(50, 80))))
		.build();

	private static final Instant NOW = Instant.parse("2024-02-20T12:00:00Z");

	private final List<QuotaThresholdEvent> published = new CopyOnWriteArrayList<>();

	private final AtomicReference<String> publishingThread = new AtomicReference<>();

	private final QuotaThresholdEvents events = new QuotaThresholdEvents((event) -> {
		publishingThread.set(Thread.currentThread().getName());
		published.add((QuotaThresholdEvent) event);
	});

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final RateLimitStore store = RateLimitStores.inMemory(100);

	private final LeaseRenewer renewer = new LeaseRenewer(NOW::toEpochMilli);

	private final AdmissionEnds ends = new AdmissionEnds(store, Clock.fixed(NOW, ZoneOffset.UTC),
			new RateLimitObservers(List.of(events, new QuotaThresholdMeters(registry)), getClass()), renewer,
			getClass());

	@AfterEach
	void close() {
		events.close();
		renewer.close();
	}

	private void admitAndSettle(long estimate, long used, boolean degraded) {
		long[] amounts = { estimate };
		Decision decision = store.reserve(PLAN, "p:caller", amounts, false, NOW.toEpochMilli());
		assertThat(decision.crossings()).isEmpty();
		Decision admitted = degraded ? decision.asDegraded() : decision;
		Reservation reservation = Reservation.of(PLAN, "p:caller", admitted, amounts).orElseThrow();
		AtomicReference<RateLimitUsage> usage = new AtomicReference<>();
		AdmissionEnds.End end = ends.of(PLAN, admitted, reservation, null, usage::set, "alice");
		usage.get().add("tokens", used);
		end.run();
	}

	@Test
	void endWhenItsSettlementCrossesThresholdsShouldPublishThemOnceWithThePrincipal() {
		admitAndSettle(10, 85, false);

		events.close();
		assertThat(published).extracting(QuotaThresholdEvent::getThresholdPercent).containsExactly(50, 80);
		assertThat(published).allSatisfy((event) -> {
			assertThat(event.getBudget()).isEqualTo("pro");
			assertThat(event.getWindow()).isEqualTo("hour");
			assertThat(event.getKeyHash()).isEqualTo("p:caller");
			assertThat(event.getPrincipalName()).contains("alice");
			assertThat(event.getUsage()).isEqualTo(85);
			assertThat(event.getLimit()).isEqualTo(100);
			assertThat(event.getPeriodEnd()).isEqualTo(Instant.parse("2024-02-20T13:00:00Z"));
		});
		assertThat(publishingThread.get()).isEqualTo("limiter-quota-events");
		assertThat(registry.get(QuotaThresholdMeters.QUOTA_THRESHOLDS).tag("threshold", "80%").counter().count())
			.isEqualTo(1);
		assertThat(store.reserve(PLAN, "p:caller", new long[] { 1 }, false, NOW.toEpochMilli()).crossings()).isEmpty();
	}

	@Test
	void endWhenItsSettlementWasDegradedShouldPublishNothing() {
		admitAndSettle(10, 85, true);

		events.close();
		assertThat(published).isEmpty();
		assertThat(registry.find(QuotaThresholdMeters.QUOTA_THRESHOLDS).counters()).isEmpty();
	}

}
