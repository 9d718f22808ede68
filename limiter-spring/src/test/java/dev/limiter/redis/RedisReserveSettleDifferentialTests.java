package dev.limiter.redis;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Decision;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Reservation;
import dev.limiter.core.Settlement;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import dev.limiter.test.redis.SharedRedis;
import dev.limiter.test.redis.UsesRedisServer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code settle.lua} and {@code BudgetArithmetic.settle} are two implementations of one
 * rule (ADR 0012), as {@code take.lua} and the arithmetic are: random sequences of
 * reservations (a random estimate), settlements of any open reservation (a random actual
 * amount, sometimes none reported, sometimes settled twice) and peeks, over a few keys
 * and budgets of units in each algorithm and mixed with requests, must get identical
 * answers from the in-memory store and the Redis store, the notify-at thresholds a
 * decision or a settlement reached included. Time moves forward, often across a window
 * end or a bucket's age, so that settlements land, and are dropped, on both sides alike.
 */
@Tag(UsesRedisServer.TAG)
class RedisReserveSettleDifferentialTests {

	private static final long BASE = 1_699_999_200_000L;

	private static final List<Budget> BUDGETS = List.of(
			Budget.builder("rs-fixed")
				.window("second", 20, Duration.ofSeconds(1))
				.window(Window.of("tokens", 300, Duration.ofSeconds(2)).inUnit("tokens"))
				.build(),
			Budget.builder("rs-fixed-notifying")
				.window(Window.of("second", 20, Duration.ofSeconds(1)).withNotifyAt(NotifyAt.of(List.of(50))))
				.window(Window.of("tokens", 300, Duration.ofSeconds(2))
					.inUnit("tokens")
					.withNotifyAt(NotifyAt.of(List.of(10, 50, 90, 100))))
				.build(),
			Budget.builder("rs-sliding")
				.window(Window.sliding("tokens", 300, Duration.ofSeconds(2), Duration.ofMillis(200)).inUnit("tokens"))
				.build(),
			Budget.builder("rs-bucket")
				.window(Window.tokenBucket("tokens", 200, Duration.ofSeconds(1), 300).inUnit("tokens"))
				.countRefused(true)
				.build(),
			Budget.builder("rs-mixed")
				.window(Window.sliding("rows", 400, Duration.ofSeconds(2), Duration.ofMillis(500)).inUnit("rows"))
				.window(Window.tokenBucket("tokens", 300, Duration.ofSeconds(1)).inUnit("tokens"))
				.window("fixed", 9, Duration.ofSeconds(3))
				.concurrency(3, Duration.ofSeconds(2))
				.build(),
			// a day from local midnight 5 s after BASE: sequences cross into the next
			Budget.builder("rs-calendar")
				.window("second", 20, Duration.ofSeconds(1))
				.window(Window
					.calendar("tokens", 300, CalendarPeriod.of(CalendarPeriod.Unit.DAY, ZoneId.of("+01:59:55")))
					.inUnit("tokens")
					.withNotifyAt(NotifyAt.of(List.of(50, 90, 100))))
				.build());

	private static final List<Budget> EXTREME_BUDGETS = List.of(
			Budget.builder("rs-x-fixed")
				.window(Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens"))
				.build(),
			Budget.builder("rs-x-capped")
				.window(Window.of("tokens", 300, Duration.ofSeconds(2)).inUnit("tokens").withMaxReport(700L))
				.window(Window.tokenBucket("rows", 200, Duration.ofSeconds(1), 300)
					.inUnit("rows")
					.withMaxReport(5_000L))
				.countRefused(true)
				.build(),
			Budget.builder("rs-x-fixed-notifying")
				.window(Window.of("tokens", 2_000, Duration.ofMinutes(1))
					.inUnit("tokens")
					.withNotifyAt(NotifyAt.of(List.of(1, 50, 100))))
				.window(Window.of("rows", 40, Duration.ofSeconds(3))
					.inUnit("rows")
					.withNotifyAt(NotifyAt.of(List.of(75))))
				.build(),
			Budget.builder("rs-x-sliding")
				.window(Window.sliding("tokens", 300, Duration.ofSeconds(2), Duration.ofMillis(200)).inUnit("tokens"))
				.window(Window.of("rows", 1, Duration.ofDays(1)).inUnit("rows"))
				.build(),
			Budget.builder("rs-x-calendar")
				.window(Window
					.calendar("tokens", 2_000, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin")))
					.inUnit("tokens")
					.withNotifyAt(NotifyAt.of(List.of(1, 80, 100))))
				.window(Window
					.calendar("rows", 50, CalendarPeriod.of(CalendarPeriod.Unit.DAY, ZoneId.of("Pacific/Kiritimati")))
					.inUnit("rows")
					.withMaxReport(60L))
				.build(),
			Budget.builder("rs-x-bucket")
				.window(Window.tokenBucket("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens"))
				.window(Window.tokenBucket("rows", 1, Duration.ofMillis(1), 7).inUnit("rows"))
				.build());

	private static LettuceConnectionFactory connectionFactory;

	private static synchronized LettuceConnectionFactory connectionFactory() {
		if (connectionFactory == null) {
			var server = SharedRedis.standalone();
			connectionFactory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(server.host(), server.port()));
			connectionFactory.afterPropertiesSet();
			connectionFactory.start();
		}
		return connectionFactory;
	}

	@AfterContainer
	static synchronized void closeConnections() {
		if (connectionFactory != null) {
			connectionFactory.destroy();
			connectionFactory = null;
		}
	}

	@Property(tries = 120)
	void redisStoreWhenReservingAndSettlingInAnyOrderShouldAnswerExactlyAsTheInMemoryStore(
			@ForAll("operations") List<Op> operations, @ForAll("budgets") int budgetIndex) {
		replay(BUDGETS.get(budgetIndex), operations, (amount) -> Map.of("tokens", amount + 1, "rows", amount / 2 + 1),
				(amount) -> Map.of("tokens", amount * 2, "rows", amount));
	}

	/**
	 * Reports over the whole {@code long} range, and time jumping over many windows:
	 * every report clamped at its window's maximum, every count, bucket and debt
	 * saturating, the same in Lua (doubles) as in Java (longs), a fixed window's carried
	 * excess paid down alike.
	 */
	@Property(tries = 120)
	void redisStoreWhenReportsSpanTheLongRangeShouldAnswerExactlyAsTheInMemoryStore(
			@ForAll("extremeOperations") List<Op> operations, @ForAll("extremeBudgets") int budgetIndex) {
		replay(EXTREME_BUDGETS.get(budgetIndex), operations,
				(amount) -> Map.of("tokens", amount % 50 + 1, "rows", amount % 7 + 1),
				(amount) -> Map.of("tokens", amount, "rows", Long.MAX_VALUE - amount));
	}

	private void replay(Budget budget, List<Op> operations, LongFunction<Map<String, Long>> estimates,
			LongFunction<Map<String, Long>> reports) {
		RateLimitStore memory = RateLimitStores.inMemory(1_000);
		RateLimitStore redis = RedisRateLimitStore.builder(connectionFactory())
			.expiryMargin(Duration.ofMinutes(5))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();
		String run = UUID.randomUUID().toString();
		List<Reservation[]> open = new ArrayList<>();
		long now = BASE + 500;
		for (int step = 0; step < operations.size(); step++) {
			Op op = operations.get(step);
			now += op.advanceMillis();
			String key = run + "-" + op.key();
			switch (op.kind()) {
				case 0, 1 -> {
					long[] amounts = budget.reservedAmounts(1, estimates.apply(op.amount()));
					Decision expected = memory.reserve(budget, key, amounts, op.amount() % 2 == 0, now);
					Decision actual = redis.reserve(budget, key, amounts, op.amount() % 2 == 0, now);
					String what = "step " + step + " " + op + "\nexpected " + expected + "\nactual   " + actual;
					assertThat(actual.allowed()).as(what).isEqualTo(expected.allowed());
					assertThat(actual.verdicts()).as(what).isEqualTo(expected.verdicts());
					assertThat(actual.retryAfterMillis()).as(what).isEqualTo(expected.retryAfterMillis());
					assertThat(actual.crossings()).as(what).isEqualTo(expected.crossings());
					Reservation m = Reservation.of(budget, key, expected, amounts).orElse(null);
					Reservation r = Reservation.of(budget, key, actual, amounts).orElse(null);
					if (m != null) {
						open.add(new Reservation[] { m, r });
					}
				}
				case 2 -> {
					if (!open.isEmpty()) {
						Reservation[] pair = open.get((int) (op.amount() % open.size()));
						Map<String, Long> actuals = (op.amount() % 5 == 0) ? Map.of() : reports.apply(op.amount());
						Settlement inMemory = pair[0].settle(actuals).orElse(null);
						Settlement inRedis = pair[1].settle(actuals).orElse(null);
						assertThat(inRedis == null).isEqualTo(inMemory == null);
						if (inMemory != null) {
							List<ThresholdCrossing> expected = memory.settle(inMemory, now)
								.toCompletableFuture()
								.join();
							assertThat(settleAndWait(redis, inRedis, now)).as("step %d %s", step, op)
								.isEqualTo(expected);
						}
					}
				}
				default -> assertThat(redis.peek(budget, key, now)).as("step %d %s", step, op)
					.isEqualTo(memory.peek(budget, key, now));
			}
		}
	}

	private static List<ThresholdCrossing> settleAndWait(RateLimitStore redis, Settlement settlement, long now) {
		try {
			return redis.settle(settlement, now).toCompletableFuture().get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new AssertionError(ex);
		}
	}

	@Provide
	Arbitrary<Integer> extremeBudgets() {
		return Arbitraries.integers().between(0, EXTREME_BUDGETS.size() - 1);
	}

	@Provide
	Arbitrary<List<Op>> extremeOperations() {
		Arbitrary<Long> advance = Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(1, 2_500),
				Arbitraries.longs().between(60_000, Duration.ofDays(30).toMillis()));
		Arbitrary<Op> op = Combinators
			.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 1),
					Arbitraries.longs().between(0, Long.MAX_VALUE), advance)
			.as(Op::new);
		return op.list().ofMinSize(1).ofMaxSize(50);
	}

	@Provide
	Arbitrary<Integer> budgets() {
		return Arbitraries.integers().between(0, BUDGETS.size() - 1);
	}

	@Provide
	Arbitrary<List<Op>> operations() {
		Arbitrary<Long> advance = Arbitraries
			.frequency(net.jqwik.api.Tuple.of(5, 0L), net.jqwik.api.Tuple.of(4, 1L), net.jqwik.api.Tuple.of(1, 2L))
			.flatMap((size) -> switch (size.intValue()) {
				case 0 -> Arbitraries.just(0L);
				case 1 -> Arbitraries.longs().between(1, 300);
				default -> Arbitraries.longs().between(301, 2_500);
			});
		Arbitrary<Op> op = Combinators
			.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 1),
					Arbitraries.longs().between(0, 150), advance)
			.as(Op::new);
		return op.list().ofMinSize(1).ofMaxSize(50);
	}

	/**
	 * {@code kind} 0 or 1 reserves, 2 settles, 3 peeks.
	 */
	record Op(int kind, int key, long amount, long advanceMillis) {
	}

}
