package dev.limiter.redis;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Window;
import dev.limiter.test.redis.UsesRedisServer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

/**
 * The calendar window's Lua and Java are two implementations of one rule, as the other
 * algorithms' are ({@link RedisRateLimitStoreAlgorithmDifferentialTests}): random
 * sequences of take, release and peek around the end of February 2024 in Berlin (a leap
 * month, a day and a week starting on Friday all end there), alone, with refusals
 * counted, and mixed with a fixed window and the concurrency bound, must get identical
 * answers from the in-memory store and the Redis store, the notify-at thresholds each
 * decision reached included. The clock crosses the period end, lands on it and a
 * millisecond either side, and goes back across it.
 */
@Tag(UsesRedisServer.TAG)
class RedisCalendarWindowDifferentialTests extends StoreSequenceDifferentialTests {

	private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

	/** Three minutes before 1 March 2024, 00:00 in Berlin. */
	private static final long BASE = Instant.parse("2024-02-29T22:57:00Z").toEpochMilli();

	static final List<Budget> BUDGETS = List.of(
			Budget.builder("diff-month")
				.window(Window.calendar("month", 6, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, BERLIN))
					.withNotifyAt(NotifyAt.of(List.of(50, 80, 100))))
				.build(),
			Budget.builder("diff-day-counting")
				.window(Window.calendar("day", 4, CalendarPeriod.of(CalendarPeriod.Unit.DAY, BERLIN))
					.withNotifyAt(NotifyAt.of(List.of(25, 75))))
				.countRefused(true)
				.build(),
			Budget.builder("diff-calendar-mixed")
				.window(Window.calendar("week", 7,
						CalendarPeriod.of(CalendarPeriod.Unit.WEEK, BERLIN, DayOfWeek.FRIDAY)))
				.window("fixed", 3, Duration.ofSeconds(10))
				.window(Window.calendar("year", 9,
						CalendarPeriod.of(CalendarPeriod.Unit.YEAR, ZoneId.of("Pacific/Kiritimati"))))
				.concurrency(2, Duration.ofMillis(2_500))
				.build());

	@Override
	protected long base() {
		return BASE;
	}

	@Override
	protected List<Budget> budgets() {
		return BUDGETS;
	}

	@Property(tries = 150)
	void redisStoreWhenGivenAnySequenceAcrossAPeriodEndShouldAnswerExactlyAsTheInMemoryStore(
			@ForAll("operations") List<Op> operations, @ForAll("nearThePeriodEnd") long offset) {
		assertRedisAnswersAsTheInMemoryStore(operations, offset);
	}

	/** Starts up to 3 minutes before the period end, or just after it. */
	@Provide
	Arbitrary<Long> nearThePeriodEnd() {
		return Arbitraries.oneOf(Arbitraries.longs().between(120_000, 180_500),
				Arbitraries.longs().between(170_000, 180_000));
	}

}
