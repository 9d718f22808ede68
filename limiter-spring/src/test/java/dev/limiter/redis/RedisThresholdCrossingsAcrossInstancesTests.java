package dev.limiter.redis;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Decision;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.SlicedRateLimitStore;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances (two stores, each on its own connection), 32 threads each, one key near
 * its monthly limit on one Redis: the month admits exactly what is left, and every
 * notify-at threshold is reported by exactly one decision across both instances, since
 * the script decides the crossing in the same call as the admission; and with
 * reservations settled above their estimates, every threshold of a fixed window is
 * reported exactly once across both instances, by the decision or the settlement
 * ({@code settle.lua}) that crossed it; and with the minute leased in slices (ADR 0014),
 * every threshold is reported exactly once across both instances, by the request whose
 * slice the script counted across it.
 */
@UsesRedisServer
class RedisThresholdCrossingsAcrossInstancesTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final Budget MONTHLY = Budget.builder("monthly-plan")
		.window(Window
			.calendar("month", 1_000, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin")))
			.withNotifyAt(NotifyAt.of(List.of(80, 90, 100))))
		.build();

	/**
	 * Tokens an hour in a fixed window, reserved at an estimate and settled at what was
	 * used: thresholds crossed by decisions and by settlements alike.
	 */
	private static final Budget HOURLY_TOKENS = Budget.builder("hourly-tokens")
		.window(Window.of("hour", 20_000, Duration.ofHours(1))
			.inUnit("tokens")
			.withNotifyAt(NotifyAt.of(List.of(25, 50, 80, 100))))
		.build();

	/**
	 * A fixed window leased in slices (ADR 0014): its thresholds are reached by the
	 * slices' units, counted in the script.
	 */
	private static final Budget SLICED_MINUTE = Budget.builder("sliced-minute")
		.window(Window.of("minute", 2_000, Duration.ofMinutes(1)).withNotifyAt(NotifyAt.of(List.of(10, 50, 80, 100))))
		.slices(new SliceTerms(50, Duration.ofSeconds(1)))
		.build();

	private static final long NOW = Instant.parse("2024-02-20T12:00:00Z").toEpochMilli();

	private RateLimitStore instance() {
		return new OverLimitRememberingStore(
				RedisRateLimitStore.builder(redis.connectionFactory()).timeout(RedisTestTimeouts.GENEROUS).build());
	}

	@Test
	void crossingsWhenTwoInstancesReserveAndSettleShouldBeReportedOncePerThresholdByDecisionsAndSettlements()
			throws Exception {
		List<RateLimitStore> instances = List.of(instance(), instance());
		String key = "k-" + UUID.randomUUID();
		Map<Integer, AtomicInteger> reported = new ConcurrentHashMap<>();
		AtomicInteger bySettlements = new AtomicInteger();
		AtomicLong clock = new AtomicLong(NOW);
		ExecutorService threads = Executors.newFixedThreadPool(64);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int t = 0; t < 64; t++) {
				RateLimitStore store = instances.get(t % 2);
				running.add(threads.submit(() -> {
					start.await();
					for (int i = 0; i < 5; i++) {
						Decision decision = store.reserve(HOURLY_TOKENS, key, new long[] { 1 }, false,
								clock.incrementAndGet());
						count(decision.crossings(), reported);
						Reservation reservation = Reservation.of(HOURLY_TOKENS, key, decision, new long[] { 1 })
							.orElse(null);
						if (reservation != null) {
							// 1 reserved, 100 used: nearly all the usage arrives by
							// settlements
							List<ThresholdCrossing> settled = store
								.settle(reservation.settle(Map.of("tokens", 100L)).orElseThrow(),
										clock.incrementAndGet())
								.toCompletableFuture()
								.get(30, TimeUnit.SECONDS);
							count(settled, reported);
							bySettlements.addAndGet(settled.size());
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : running) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}

		// up to 320 reservations of 100 used: 32,000 tokens tried against 20,000, every
		// threshold reached
		assertThat(reported).containsOnlyKeys(25, 50, 80, 100);
		assertThat(reported.values()).extracting(AtomicInteger::get).containsOnly(1);
		assertThat(bySettlements.get()).as("thresholds reported by settlements").isPositive();
		assertThat(instances.get(0)
			.reserve(HOURLY_TOKENS, key, new long[] { 1 }, false, clock.incrementAndGet())
			.crossings()).as("a later decision reports nothing again").isEmpty();
	}

	@Test
	void crossingsWhenTwoInstancesTakeSlicesShouldBeReportedOncePerThresholdAndAdmitNoMoreThanTheBound()
			throws Exception {
		List<RateLimitStore> instances = List.of(slicingInstance(), slicingInstance());
		String key = "k-" + UUID.randomUUID();
		long start = Window.of("minute", 2_000, Duration.ofMinutes(1)).resetAt(NOW) - 60_000L;
		AtomicInteger admitted = new AtomicInteger();
		AtomicLong clock = new AtomicLong();
		Map<Integer, AtomicInteger> reported = new ConcurrentHashMap<>();
		ExecutorService threads = Executors.newFixedThreadPool(64);
		CountDownLatch ready = new CountDownLatch(1);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int t = 0; t < 64; t++) {
				RateLimitStore store = instances.get(t % 2);
				running.add(threads.submit(() -> {
					ready.await();
					for (int i = 0; i < 40; i++) {
						// a millisecond a request: slices expire and go back meanwhile
						Decision decision = store.take(SLICED_MINUTE, key, 1, false, start + clock.incrementAndGet());
						if (decision.allowed()) {
							admitted.incrementAndGet();
						}
						count(decision.crossings(), reported);
					}
					return null;
				}));
			}
			ready.countDown();
			for (Future<?> future : running) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}

		// the store refuses only once it counted 2,000: the 100 % threshold was reached
		assertThat(admitted.get()).as("2,560 tried, 2,000 in the minute, at most two slices unspent")
			.isBetween(2_000 - 2 * 50, 2_000);
		assertThat(reported).containsOnlyKeys(10, 50, 80, 100);
		assertThat(reported.values()).extracting(AtomicInteger::get).containsOnly(1);
	}

	private RateLimitStore slicingInstance() {
		return new SlicedRateLimitStore(new OverLimitRememberingStore(
				RedisRateLimitStore.builder(redis.connectionFactory()).timeout(RedisTestTimeouts.GENEROUS).build()));
	}

	private static void count(List<ThresholdCrossing> crossings, Map<Integer, AtomicInteger> reported) {
		for (ThresholdCrossing crossing : crossings) {
			reported.computeIfAbsent(crossing.percent(), (p) -> new AtomicInteger()).incrementAndGet();
		}
	}

	@Test
	void crossingsWhenTwoInstancesRaceNearAMonthlyLimitShouldBeReportedOncePerThresholdAndAdmitExactlyTheBound()
			throws Exception {
		List<RateLimitStore> instances = List.of(instance(), instance());
		String key = "k-" + UUID.randomUUID();
		assertThat(instances.get(0).take(MONTHLY, key, 750, false, NOW).crossings()).isEmpty();
		AtomicInteger admitted = new AtomicInteger();
		AtomicLong clock = new AtomicLong(NOW);
		Map<Integer, AtomicInteger> reported = new ConcurrentHashMap<>();
		ExecutorService threads = Executors.newFixedThreadPool(64);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int t = 0; t < 64; t++) {
				RateLimitStore store = instances.get(t % 2);
				running.add(threads.submit(() -> {
					start.await();
					for (int i = 0; i < 10; i++) {
						Decision decision = store.take(MONTHLY, key, 1, false, clock.incrementAndGet());
						if (decision.allowed()) {
							admitted.incrementAndGet();
						}
						for (ThresholdCrossing crossing : decision.crossings()) {
							reported.computeIfAbsent(crossing.percent(), (p) -> new AtomicInteger()).incrementAndGet();
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : running) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}

		assertThat(admitted.get()).as("640 tried, 250 left in the month").isEqualTo(250);
		assertThat(reported).containsOnlyKeys(80, 90, 100);
		assertThat(reported.values()).extracting(AtomicInteger::get).containsOnly(1);
	}

}
