package dev.limiter.core.contract;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Window;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A budget whose windows change under the same name (a configuration refresh) keeps each
 * window's count under the window's name: a changed limit, a window added, removed or
 * moved leaves every other window's count where it was; a window no longer declared is
 * forgotten, a new one starts from zero, and one whose algorithm or length changed starts
 * afresh. Leases stay. Every {@link RateLimitStore} extends this class and passes it
 * unchanged.
 */
public abstract class WindowChangeContractTests {

	/** An instant on a day boundary: every window below starts here. */
	protected static final long T0 = 1_700_006_400_000L;

	protected RateLimitStore store;

	protected String key;

	private String name;

	protected abstract RateLimitStore createStore();

	/**
	 * How this run calls the store: {@code null} (the default) through its synchronous
	 * methods; else through its asynchronous ones ({@link AsyncCallingStore}), each
	 * answer read this way. A subclass that answers one runs the whole suite again
	 * through {@code takeAsync}, {@code reserveAsync} and {@code renewAsync}, which must
	 * decide exactly as the synchronous calls.
	 */
	protected AsyncCalls asyncCalls() {
		return null;
	}

	@BeforeEach
	void setUpStore() {
		store = createStore();
		if (asyncCalls() != null) {
			store = new AsyncCallingStore(store, asyncCalls());
		}
		key = "k-" + UUID.randomUUID();
		name = "changed-" + UUID.randomUUID().toString().substring(0, 8);
	}

	private Budget budget(Window... windows) {
		Budget.Builder builder = Budget.builder(name);
		for (Window window : windows) {
			builder.window(window);
		}
		return builder.build();
	}

	private static Window minute(long limit) {
		return Window.of("minute", limit, Duration.ofMinutes(1));
	}

	private static Window hour(long limit) {
		return Window.of("hour", limit, Duration.ofHours(1));
	}

	private static Window day(long limit) {
		return Window.of("day", limit, Duration.ofDays(1));
	}

	private static Window month(long limit, String zone) {
		return Window.calendar("month", limit, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of(zone)));
	}

	private void takeTimes(Budget budget, int times, long now) {
		for (int i = 0; i < times; i++) {
			assertThat(store.take(budget, key, 1, false, now).allowed()).isTrue();
		}
	}

	private long remaining(Budget budget, String window, long now) {
		return bound(store.peek(budget, key, now).bounds().stream().filter(b -> b.name().equals(window)).toList());
	}

	private static long remaining(Decision decision, String window) {
		return bound(decision.verdicts().stream().filter(b -> b.name().equals(window)).toList());
	}

	private static long bound(List<BoundVerdict> named) {
		assertThat(named).hasSize(1);
		return named.get(0).remaining();
	}

	@Test
	void changeWhenTheSecondWindowsLimitIsRaisedShouldKeepBothCountsUnderTheirNames() {
		takeTimes(budget(minute(5), hour(2_000)), 2, T0 + 1_000);

		Budget raised = budget(minute(5), hour(3_000));

		assertThat(remaining(raised, "minute", T0 + 2_000)).isEqualTo(3);
		assertThat(remaining(raised, "hour", T0 + 2_000)).isEqualTo(2_998);
	}

	@Test
	void changeWhenTheWindowsAreReorderedShouldKeepEachCountUnderItsName() {
		takeTimes(budget(minute(5), hour(2_000)), 2, T0 + 1_000);

		Budget reordered = budget(hour(3_000), minute(5));
		Decision third = store.take(reordered, key, 1, false, T0 + 2_000);

		assertThat(third.allowed()).isTrue();
		assertThat(remaining(third, "minute")).isEqualTo(2);
		assertThat(remaining(third, "hour")).isEqualTo(2_997);
	}

	@Test
	void changeWhenAWindowIsAddedShouldKeepTheOthersAndStartItFromZero() {
		takeTimes(budget(minute(5), hour(100)), 3, T0 + 1_000);

		Budget added = budget(minute(5), day(1_000), hour(100));
		Decision fourth = store.take(added, key, 1, false, T0 + 2_000);

		assertThat(remaining(fourth, "minute")).isEqualTo(1);
		assertThat(remaining(fourth, "hour")).isEqualTo(96);
		assertThat(remaining(fourth, "day")).isEqualTo(999);
	}

	@Test
	void changeWhenAWindowIsRemovedShouldKeepTheOthersAndForgetItsCount() {
		Budget three = budget(minute(5), hour(100), day(1_000));
		takeTimes(three, 3, T0 + 1_000);

		Budget withoutHour = budget(minute(5), day(1_000));
		Decision fourth = store.take(withoutHour, key, 1, false, T0 + 2_000);

		assertThat(fourth.verdicts()).extracting(BoundVerdict::name).containsExactly("minute", "day");
		assertThat(remaining(fourth, "minute")).isEqualTo(1);
		assertThat(remaining(fourth, "day")).isEqualTo(996);
	}

	@Test
	void changeWhenAWindowIsAddedOrRemovedShouldNotGiveACallerAtItsLimitAFreshCount() {
		Budget minuteOnly = budget(minute(5));
		Budget withDay = budget(minute(5), day(1_000));
		takeTimes(minuteOnly, 5, T0 + 1_000);

		assertThat(store.take(withDay, key, 1, false, T0 + 2_000).allowed()).isFalse();
		assertThat(store.take(minuteOnly, key, 1, false, T0 + 3_000).allowed()).isFalse();
		assertThat(store.take(withDay, key, 1, false, T0 + 4_000).allowed()).isFalse();
	}

	@Test
	void changeWhenAWindowsAlgorithmOrLengthChangesShouldStartOnlyThatWindowAfresh() {
		takeTimes(budget(minute(5), hour(100), day(1_000)), 3, T0 + 1_000);

		Budget changed = budget(minute(5), Window.sliding("hour", 100, Duration.ofHours(1)),
				Window.of("day", 1_000, Duration.ofHours(12)));
		Decision fourth = store.take(changed, key, 1, false, T0 + 2_000);

		assertThat(remaining(fourth, "minute")).isEqualTo(1);
		assertThat(remaining(fourth, "hour")).as("another algorithm").isEqualTo(99);
		assertThat(remaining(fourth, "day")).as("another length").isEqualTo(999);
	}

	@Test
	void changeWhenACalendarWindowsLimitChangesShouldKeepItsCount() {
		takeTimes(budget(minute(50), month(10, "Europe/Berlin")), 3, T0 + 1_000);

		Decision raised = store.take(budget(minute(50), month(20, "Europe/Berlin")), key, 1, false, T0 + 2_000);

		assertThat(remaining(raised, "month")).isEqualTo(16);
	}

	@Test
	void changeWhenACalendarWindowsZoneOrPeriodChangesShouldStartItAfresh() {
		takeTimes(budget(minute(50), month(10, "Europe/Berlin")), 3, T0 + 1_000);

		Decision elsewhere = store.take(budget(minute(50), month(10, "America/New_York")), key, 1, false, T0 + 2_000);
		Decision weekly = store.take(
				budget(minute(50),
						Window.calendar("month", 10,
								CalendarPeriod.of(CalendarPeriod.Unit.WEEK, ZoneId.of("America/New_York")))),
				key, 1, false, T0 + 3_000);

		assertThat(remaining(elsewhere, "minute")).isEqualTo(46);
		assertThat(remaining(elsewhere, "month")).as("another zone").isEqualTo(9);
		assertThat(remaining(weekly, "month")).as("another period").isEqualTo(9);
	}

	@Test
	void changeWhenSlidingAndBucketWindowsMoveShouldKeepTheirStateUnderTheirNames() {
		Window sliding = Window.sliding("tens", 5, Duration.ofSeconds(10));
		Window bucket = Window.tokenBucket("burst", 10, Duration.ofMinutes(1));
		takeTimes(budget(minute(50), sliding, bucket), 4, T0 + 1_000);

		Budget moved = budget(bucket, minute(60), sliding);
		Decision fifth = store.take(moved, key, 1, false, T0 + 1_000);

		assertThat(remaining(fifth, "tens")).isEqualTo(0);
		assertThat(remaining(fifth, "burst")).isEqualTo(5);
		assertThat(remaining(fifth, "minute")).isEqualTo(55);
		assertThat(store.take(moved, key, 1, false, T0 + 1_000).allowed()).as("the sliding window is full").isFalse();
	}

	@Test
	void changeWhenAWindowIsAddedShouldKeepTheLeasesHeld() {
		Budget bounded = Budget.builder(name).window(minute(50)).concurrency(1, Duration.ofSeconds(30)).build();
		Decision holding = store.take(bounded, key, 1, true, T0 + 1_000);
		assertThat(holding.allowed()).isTrue();

		Budget added = Budget.builder(name)
			.window(minute(50))
			.window(hour(500))
			.concurrency(1, Duration.ofSeconds(30))
			.build();
		Decision second = store.take(added, key, 1, true, T0 + 2_000);

		assertThat(second.allowed()).as("the one lease is still held").isFalse();
		assertThat(remaining(second, "minute")).isEqualTo(49);
	}

}
