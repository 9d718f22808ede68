package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.Window;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Settlements across instances: two stores (each with its own connection factory) share
 * one Redis and 32 threads each reserve and settle on one key at one instant. Every
 * actual amount is counted exactly, for each algorithm; and where the limit binds, what
 * was admitted exceeds it by no more than the overshoot of the requests in flight at once
 * (each fitted its estimate; its actual amount may not have).
 */
@UsesRedisServer
class RedisReserveSettleExactnessTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private static final int THREADS_PER_INSTANCE = 32;

	private static final int REQUESTS_PER_THREAD = 10;

	private static final long NOW = 1_699_999_200_000L + 30_500;

	private static final long ESTIMATE = 10;

	private static final long MAX_ACTUAL = 40;

	@Test
	void twoInstancesWhenSettlingConcurrentlyShouldCountEveryActualAmountOfEveryAlgorithm() throws Exception {
		long big = 1_000_000;
		List<Budget> budgets = List.of(
				Budget.builder("exact-settle-fixed")
					.window(Window.of("tokens", big, Duration.ofMinutes(1)).inUnit("tokens"))
					.build(),
				Budget.builder("exact-settle-sliding")
					.window(Window.sliding("tokens", big, Duration.ofMinutes(1)).inUnit("tokens"))
					.build(),
				Budget.builder("exact-settle-bucket")
					.window(Window.tokenBucket("tokens", 60_000, Duration.ofMinutes(1), big).inUnit("tokens"))
					.build());
		for (Budget budget : budgets) {
			String key = "exact-settle-" + UUID.randomUUID();
			Run run = run(budget, key);
			long remaining = tokens(run.peeker().peek(budget, key, NOW).bounds());
			assertThat(run.admitted()).as("%s admitted", budget.name())
				.isEqualTo(2 * THREADS_PER_INSTANCE * REQUESTS_PER_THREAD);
			assertThat(big - remaining).as("%s counted", budget.name()).isEqualTo(run.actualSum());
		}
	}

	@Test
	void twoInstancesWhenTheLimitBindsShouldAdmitNoMoreThanTheLimitAndTheOvershootInFlight() throws Exception {
		long limit = 5_000;
		Budget budget = Budget.builder("bound-settle")
			.window("minute", 100_000, Duration.ofMinutes(1))
			.window(Window.of("tokens", limit, Duration.ofMinutes(1)).inUnit("tokens"))
			.build();
		Run run = run(budget, "bound-settle-" + UUID.randomUUID());

		long inFlight = 2L * THREADS_PER_INSTANCE;
		assertThat(run.actualSum()).isGreaterThan(limit - MAX_ACTUAL)
			.isLessThanOrEqualTo(limit + inFlight * (MAX_ACTUAL - ESTIMATE));
	}

	@Test
	void twoInstancesWhenSixteenReservationsInFlightEachReportTheWholeWindowShouldCarryTheExcessUntilPaid()
			throws Exception {
		long limit = 2_000;
		Budget budget = Budget.builder("carry-settle")
			.window("minute", 60, Duration.ofMinutes(1))
			.window(Window.of("tokens", limit, Duration.ofMinutes(1)).inUnit("tokens"))
			.build();
		String key = "carry-settle-" + UUID.randomUUID();
		List<RateLimitStore> instances = List.of(instance(redis.connectionFactory()),
				instance(redis.connectionFactory()));
		int inFlight = 16;
		ExecutorService pool = Executors.newFixedThreadPool(inFlight);
		try {
			// every request reserves its estimate of 1, and none reports until all have
			CountDownLatch reserved = new CountDownLatch(inFlight);
			List<Future<Boolean>> results = new ArrayList<>();
			for (int r = 0; r < inFlight; r++) {
				RateLimitStore store = instances.get(r % 2);
				results.add(pool.submit(() -> {
					long[] amounts = budget.amounts(1, Map.of("tokens", 1L));
					Decision decision = store.reserve(budget, key, amounts, false, NOW);
					reserved.countDown();
					reserved.await();
					Reservation reservation = Reservation.of(budget, key, decision, amounts).orElse(null);
					if (reservation != null) {
						store.settle(reservation.settle(Map.of("tokens", limit)).orElseThrow(), NOW + 100)
							.toCompletableFuture()
							.get(30, TimeUnit.SECONDS);
					}
					return reservation != null;
				}));
			}
			long admitted = 0;
			for (Future<Boolean> f : results) {
				admitted += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
			}

			// the bound of ADR 0012: over by at most in flight x (max report - estimate)
			// beyond the window, and paid back before the key is admitted again: 32,000
			// counted, minute k after starts at 32,000 - 2,000 k
			assertThat(admitted).isEqualTo(inFlight);
			assertThat(admitted * limit - limit).isLessThanOrEqualTo(inFlight * (limit - 1));
			long minuteStart = NOW - NOW % 60_000;
			for (int minute = 1; minute < 16; minute++) {
				long at = minuteStart + minute * 60_000L + 59_000;
				for (RateLimitStore store : instances) {
					assertThat(store.reserve(budget, key, budget.amounts(1, Map.of("tokens", 1L)), false, at).allowed())
						.as("minute %d", minute)
						.isFalse();
				}
			}
			assertThat(instances.get(1)
				.reserve(budget, key, budget.amounts(1, Map.of("tokens", 1L)), false, minuteStart + 16 * 60_000L)
				.allowed()).isTrue();
		}
		finally {
			pool.shutdownNow();
		}
	}

	private Run run(Budget budget, String key) throws Exception {
		List<RateLimitStore> instances = List.of(instance(redis.connectionFactory()),
				instance(redis.connectionFactory()));
		ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_INSTANCE);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<long[]>> results = new ArrayList<>();
			for (RateLimitStore store : instances) {
				for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
					int thread = t;
					results.add(pool.submit(() -> {
						start.await();
						long admitted = 0;
						long sum = 0;
						for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
							long[] amounts = budget.amounts(1, Map.of("tokens", ESTIMATE));
							Decision decision = store.reserve(budget, key, amounts, false, NOW);
							Reservation reservation = Reservation.of(budget, key, decision, amounts).orElse(null);
							if (reservation != null) {
								long actual = (thread * 31L + i * 17L) % (MAX_ACTUAL + 1);
								store.settle(reservation.settle(Map.of("tokens", actual)).orElseThrow(), NOW)
									.toCompletableFuture()
									.get(30, TimeUnit.SECONDS);
								admitted++;
								sum += actual;
							}
						}
						return new long[] { admitted, sum };
					}));
				}
			}
			start.countDown();
			long admitted = 0;
			long sum = 0;
			for (Future<long[]> f : results) {
				long[] r = f.get(120, TimeUnit.SECONDS);
				admitted += r[0];
				sum += r[1];
			}
			return new Run(instances.get(0), admitted, sum);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static long tokens(List<BoundVerdict> bounds) {
		return bounds.stream().filter((b) -> b.name().equals("tokens")).findFirst().orElseThrow().remaining();
	}

	private static RateLimitStore instance(RedisConnectionFactory factory) {
		return new OverLimitRememberingStore(
				RedisRateLimitStore.builder(factory).timeout(RedisTestTimeouts.GENEROUS).build());
	}

	record Run(RateLimitStore peeker, long admitted, long actualSum) {
	}

}
