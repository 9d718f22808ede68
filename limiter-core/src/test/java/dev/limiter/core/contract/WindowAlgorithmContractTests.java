package dev.limiter.core.contract;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.limiter.core.BoundNames;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The sliding window (ADR 0008), the token bucket (ADR 0009) and the calendar window (ADR
 * 0015) at exact milliseconds, alone and mixed with a fixed window and the concurrency
 * bound, a clock that goes back included. Every {@link RateLimitStore} extends this class
 * and passes it unchanged, as it does {@link RateLimitStoreContractTests}.
 */
public abstract class WindowAlgorithmContractTests {

	/** An instant on an hour boundary. */
	protected static final long T0 = 1_699_999_200_000L;

	/** 5 in any 10 s, in buckets of 1 s (the default: never finer than a second). */
	protected static final Budget SLIDING = Budget.builder("sliding")
		.window(Window.sliding("tens", 5, Duration.ofSeconds(10)))
		.build();

	/** A bucket of 5 refilled at 5 per 10 s: a token every 2 s. */
	protected static final Budget BUCKET = Budget.builder("bucket")
		.window(Window.tokenBucket("tens", 5, Duration.ofSeconds(10)))
		.build();

	/** 3 a calendar month in Berlin. */
	protected static final Budget MONTHLY = Budget.builder("monthly")
		.window(Window.calendar("month", 3, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin"))))
		.build();

	/** The end of February 2024 (29 days) in Berlin: 1 March, 00:00 CET. */
	protected static final long LEAP_FEBRUARY_END = Instant.parse("2024-02-29T23:00:00Z").toEpochMilli();

	protected RateLimitStore store;

	protected String key;

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
	}

	private Decision take(Budget budget, long now) {
		return store.take(budget, key, 1, false, now);
	}

	private Decision take(Budget budget, long cost, long now) {
		return store.take(budget, key, cost, false, now);
	}

	@Test
	void slidingWhenFullLateInAWindowShouldStillRefuseAfterTheFixedBoundaryUntilTheAdmissionsAgeOut() {
		for (int i = 0; i < 5; i++) {
			assertThat(take(SLIDING, T0 + 9_000 + i).allowed()).as("request %d", i + 1).isTrue();
		}

		Decision afterBoundary = take(SLIDING, T0 + 11_000);
		Decision lastRefused = take(SLIDING, T0 + 19_999);
		Decision aged = take(SLIDING, T0 + 20_000);

		assertThat(afterBoundary.allowed()).isFalse();
		// Admitted in the bucket [9 s, 10 s): counted until 10 s + 10 s.
		assertThat(afterBoundary.retryAfterMillis()).isEqualTo(9_000);
		assertThat(afterBoundary.retryAfterSeconds()).isEqualTo(9);
		assertThat(afterBoundary.bindingWindow().remaining()).isZero();
		assertThat(afterBoundary.bindingWindow().resetAtMillis()).isEqualTo(T0 + 20_000);
		assertThat(afterBoundary.refusingBound()).map(BoundVerdict::name).contains("tens");
		assertThat(lastRefused.allowed()).isFalse();
		assertThat(lastRefused.retryAfterMillis()).isEqualTo(1);
		assertThat(lastRefused.retryAfterSeconds()).isEqualTo(1);
		assertThat(aged.allowed()).isTrue();
		assertThat(aged.bindingWindow().remaining()).isEqualTo(4);
	}

	@Test
	void slidingWhenFullJustBeforeAFixedBoundaryShouldNotAdmitTwiceTheLimitAcrossIt() {
		for (int i = 0; i < 5; i++) {
			assertThat(take(SLIDING, T0 + 9_999).allowed()).isTrue();
		}

		assertThat(take(SLIDING, T0 + 10_000).allowed()).isFalse();
		assertThat(take(SLIDING, T0 + 10_001).retryAfterMillis()).isEqualTo(9_999);
	}

	@Test
	void slidingWhenSpreadShouldFreeRoomAsEachBucketAgesOut() {
		for (int i = 0; i < 5; i++) {
			assertThat(take(SLIDING, T0 + 2_000L * i + 500).allowed()).isTrue();
		}

		Decision refused = take(SLIDING, T0 + 10_600);
		Decision firstBack = take(SLIDING, T0 + 11_000);
		Decision refusedAgain = take(SLIDING, T0 + 11_001);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.retryAfterMillis()).isEqualTo(400);
		assertThat(refused.bindingWindow().resetAtMillis()).isEqualTo(T0 + 19_000);
		assertThat(firstBack.allowed()).isTrue();
		assertThat(firstBack.bindingWindow().remaining()).isZero();
		assertThat(firstBack.bindingWindow().resetAtMillis()).isEqualTo(T0 + 22_000);
		assertThat(refusedAgain.retryAfterMillis()).isEqualTo(13_000 - 11_001);
	}

	@Test
	void slidingWhenACostNeedsSeveralBucketsToAgeOutShouldWaitForTheLastOfThem() {
		take(SLIDING, 2, T0 + 500);
		take(SLIDING, 1, T0 + 1_500);
		take(SLIDING, 2, T0 + 2_500);

		Decision refused = take(SLIDING, 3, T0 + 3_000);

		assertThat(refused.allowed()).isFalse();
		// 5 counted; room for 3 once the 2 of [0 s, 1 s) and the 1 of [1 s, 2 s) age out.
		assertThat(refused.retryAfterMillis()).isEqualTo(12_000 - 3_000);
		assertThat(take(SLIDING, 3, T0 + 11_999).allowed()).isFalse();
		assertThat(take(SLIDING, 3, T0 + 12_000).allowed()).isTrue();
	}

	@Test
	void slidingWhenRefusedShouldCountNothingUnlessTheBudgetCountsRefusals() {
		Budget counting = Budget.builder("sliding-counting")
			.window(Window.sliding("tens", 5, Duration.ofSeconds(10)))
			.countRefused(true)
			.build();
		for (int i = 0; i < 5; i++) {
			take(SLIDING, T0);
			take(counting, T0);
		}
		for (int i = 0; i < 10; i++) {
			assertThat(take(SLIDING, T0 + 5_000 + i).allowed()).isFalse();
			assertThat(take(counting, T0 + 5_000 + i).allowed()).isFalse();
		}

		assertThat(take(SLIDING, T0 + 11_000).allowed()).isTrue();
		assertThat(take(counting, T0 + 11_000).allowed()).isFalse();
		assertThat(take(counting, T0 + 11_000).retryAfterMillis()).isEqualTo(16_000 - 11_000);
	}

	@Test
	void slidingWhenTheClockGoesBackShouldCountInTheNewestBucketSeen() {
		take(SLIDING, T0 + 7_000);
		Decision back = take(SLIDING, T0 + 6_000);

		assertThat(back.allowed()).isTrue();
		assertThat(back.bindingWindow().resetAtMillis()).isEqualTo(T0 + 18_000);
		assertThat(store.peek(SLIDING, key, T0 + 17_999).bounds().get(0).remaining()).isEqualTo(3);
		assertThat(store.peek(SLIDING, key, T0 + 18_000).bounds().get(0).remaining()).isEqualTo(5);
	}

	@Test
	void slidingWhenTheClockGoesBackAfterFillingShouldRefuseUntilTheSameMoment() {
		for (int i = 0; i < 5; i++) {
			take(SLIDING, T0 + 5_000);
		}

		Decision back = take(SLIDING, T0 + 4_000);

		assertThat(back.allowed()).isFalse();
		assertThat(back.retryAfterMillis()).isEqualTo(16_000 - 4_000);
	}

	@Test
	void slidingWhenPeekedShouldReadWithoutCounting() {
		take(SLIDING, T0 + 1_000);

		KeyState first = store.peek(SLIDING, key, T0 + 1_500);
		KeyState second = store.peek(SLIDING, key, T0 + 1_500);

		assertThat(first.bounds()).singleElement().satisfies((v) -> {
			assertThat(v.remaining()).isEqualTo(4);
			assertThat(v.resetAtMillis()).isEqualTo(T0 + 12_000);
			assertThat(v.refused()).isFalse();
		});
		assertThat(second).isEqualTo(first);
		assertThat(take(SLIDING, T0 + 1_600).bindingWindow().remaining()).isEqualTo(3);
	}

	@Test
	void slidingWhenResolutionIsConfiguredShouldRoundExpiryToIt() {
		Budget fine = Budget.builder("sliding-fine")
			.window(Window.sliding("tens", 2, Duration.ofSeconds(10), Duration.ofMillis(100)))
			.build();
		take(fine, T0 + 1_234);
		take(fine, T0 + 1_250);

		Decision refused = take(fine, T0 + 5_000);

		assertThat(refused.retryAfterMillis()).isEqualTo(11_300 - 5_000);
		assertThat(take(fine, T0 + 11_300).allowed()).isTrue();
	}

	@Test
	void bucketWhenEmptiedAtOnceShouldRefuseTheNextUntilOneTokenRefills() {
		for (int i = 0; i < 5; i++) {
			assertThat(take(BUCKET, T0).allowed()).as("request %d", i + 1).isTrue();
		}

		Decision sixth = take(BUCKET, T0);
		Decision early = take(BUCKET, T0 + 1_999);
		Decision refilled = take(BUCKET, T0 + 2_000);
		Decision next = take(BUCKET, T0 + 2_000);

		assertThat(sixth.allowed()).isFalse();
		assertThat(sixth.retryAfterMillis()).isEqualTo(2_000);
		assertThat(sixth.retryAfterSeconds()).isEqualTo(2);
		assertThat(sixth.bindingWindow().remaining()).isZero();
		assertThat(sixth.bindingWindow().resetAtMillis()).isEqualTo(T0 + 10_000);
		assertThat(early.allowed()).isFalse();
		assertThat(early.retryAfterMillis()).isEqualTo(1);
		assertThat(refilled.allowed()).isTrue();
		assertThat(refilled.bindingWindow().remaining()).isZero();
		assertThat(next.allowed()).isFalse();
		assertThat(next.retryAfterMillis()).isEqualTo(2_000);
	}

	@Test
	void bucketWhenAdmittedShouldShowWholeTokensLeftAndWhenItIsFullAgain() {
		Decision first = take(BUCKET, T0);
		Decision later = take(BUCKET, T0 + 1_000);

		assertThat(first.bindingWindow().remaining()).isEqualTo(4);
		assertThat(first.bindingWindow().resetAtMillis()).isEqualTo(T0 + 2_000);
		assertThat(first.bindingWindow().limit()).isEqualTo(5);
		// 1 000 ms refilled half a token: 3.5 left, shown as 3; full at 1 s + 2 * 2 s -
		// ...
		assertThat(later.bindingWindow().remaining()).isEqualTo(3);
		assertThat(later.bindingWindow().resetAtMillis()).isEqualTo(T0 + 4_000);
		assertThat(store.peek(BUCKET, key, T0 + 4_000).bounds().get(0).remaining()).isEqualTo(5);
	}

	@Test
	void bucketWhenBurstExceedsTheLimitShouldAdmitTheBurstThenTheRate() {
		Budget burst = Budget.builder("bucket-burst")
			.window(Window.tokenBucket("tens", 5, Duration.ofSeconds(10), 12))
			.build();
		for (int i = 0; i < 12; i++) {
			assertThat(take(burst, T0).allowed()).as("request %d", i + 1).isTrue();
		}

		Decision refused = take(burst, T0);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.retryAfterMillis()).isEqualTo(2_000);
		assertThat(refused.bindingWindow().resetAtMillis()).isEqualTo(T0 + 24_000);
		assertThat(take(burst, 12, T0 + 24_000).allowed()).isTrue();
	}

	@Test
	void bucketWhenTheRefillIntervalIsNotWholeMillisecondsShouldRetryAtTheFirstWholeMillisecond() {
		Budget thirds = Budget.builder("bucket-thirds")
			.window(Window.tokenBucket("tens", 3, Duration.ofSeconds(10)))
			.build();
		for (int i = 0; i < 3; i++) {
			take(thirds, T0);
		}

		Decision refused = take(thirds, T0);

		// A token every 3 333.3 ms.
		assertThat(refused.retryAfterMillis()).isEqualTo(3_334);
		assertThat(take(thirds, T0 + 3_333).allowed()).isFalse();
		assertThat(take(thirds, T0 + 3_334).allowed()).isTrue();
		assertThat(take(thirds, T0 + 6_666).allowed()).isFalse();
		assertThat(take(thirds, T0 + 6_667).allowed()).isTrue();
		assertThat(take(thirds, T0 + 10_000).allowed()).isTrue();
		assertThat(take(thirds, T0 + 10_000).allowed()).isFalse();
	}

	@Test
	void bucketWhenACostExceedsTheTokensShouldWaitUntilEnoughRefill() {
		take(BUCKET, 4, T0);

		Decision refused = take(BUCKET, 3, T0 + 500);

		assertThat(refused.allowed()).isFalse();
		// 1 token left at 0 s, 2 more needed: 4 s after 0 s.
		assertThat(refused.retryAfterMillis()).isEqualTo(3_500);
		assertThat(take(BUCKET, 3, T0 + 3_999).allowed()).isFalse();
		assertThat(take(BUCKET, 3, T0 + 4_000).allowed()).isTrue();
		assertThatIllegalArgumentException().isThrownBy(() -> take(BUCKET, 6, T0 + 60_000));
	}

	@Test
	void bucketWhenRefusedShouldCountNothingUnlessTheBudgetCountsRefusals() {
		Budget counting = Budget.builder("bucket-counting")
			.window(Window.tokenBucket("tens", 5, Duration.ofSeconds(10)))
			.countRefused(true)
			.build();
		for (int i = 0; i < 5; i++) {
			take(BUCKET, T0);
			take(counting, T0);
		}
		for (int i = 0; i < 3; i++) {
			assertThat(take(BUCKET, T0 + 100).allowed()).isFalse();
			assertThat(take(counting, T0 + 100).allowed()).isFalse();
		}

		assertThat(take(BUCKET, T0 + 2_000).allowed()).isTrue();
		Decision counted = take(counting, T0 + 2_000);
		assertThat(counted.allowed()).isFalse();
		assertThat(counted.retryAfterMillis()).isEqualTo(8_000);
	}

	@Test
	void bucketWhenTheClockGoesBackShouldNeverAdmitMore() {
		for (int i = 0; i < 5; i++) {
			take(BUCKET, T0 + 5_000);
		}

		Decision back = take(BUCKET, T0 + 4_000);

		assertThat(back.allowed()).isFalse();
		assertThat(back.retryAfterMillis()).isEqualTo(3_000);
		assertThat(take(BUCKET, T0 + 7_000).allowed()).isTrue();
	}

	@Test
	void mixedBudgetWhenAnyBoundRefusesShouldCountInNoneAndRetryAfterTheLongestWait() {
		Budget mixed = Budget.builder("mixed")
			.window(Window.sliding("minute", 3, Duration.ofMinutes(1)))
			.window(Window.tokenBucket("burst", 2, Duration.ofSeconds(10)))
			.window("hour", 100, Duration.ofHours(1))
			.concurrency(1, Duration.ofSeconds(30))
			.build();
		Decision first = store.take(mixed, key, 1, true, T0);
		Decision leaseRefused = store.take(mixed, key, 1, true, T0 + 1);
		Decision cheap = store.take(mixed, key, 1, false, T0 + 2);
		Decision bucketRefused = store.take(mixed, key, 1, false, T0 + 3);

		assertThat(first.allowed()).isTrue();
		assertThat(leaseRefused.allowed()).isFalse();
		assertThat(leaseRefused.refusingBound()).map(BoundVerdict::name).contains(BoundNames.CONCURRENCY);
		assertThat(cheap.allowed()).isTrue();
		assertThat(cheap.verdicts()).extracting(BoundVerdict::remaining).containsExactly(1L, 0L, 98L);
		assertThat(bucketRefused.allowed()).isFalse();
		assertThat(bucketRefused.refusingBound()).map(BoundVerdict::name).contains("burst");
		assertThat(bucketRefused.retryAfterMillis()).isEqualTo(5_000 - 3);
		Decision third = store.take(mixed, key, 1, false, T0 + 5_000);
		assertThat(third.allowed()).isTrue();
		Decision both = store.take(mixed, key, 1, false, T0 + 10_000);
		// The minute has 0 left until 60 s + 1 s; the bucket refilled by then.
		assertThat(both.allowed()).isFalse();
		assertThat(both.refusingBound()).map(BoundVerdict::name).contains("minute");
		assertThat(both.retryAfterMillis()).isEqualTo(61_000 - 10_000);
		assertThat(store.peek(mixed, key, T0 + 10_000).bounds()).extracting(BoundVerdict::remaining)
			.containsExactly(0L, 1L, 97L, 0L);
	}

	@Test
	void calendarWhenFullShouldRefuseUntilTheLastMillisecondOfThePeriodAndAdmitFromTheFirstOfTheNext() {
		for (int i = 0; i < 3; i++) {
			assertThat(take(MONTHLY, LEAP_FEBRUARY_END - 10 * 86_400_000L + i).allowed()).isTrue();
		}

		Decision lastSecond = take(MONTHLY, LEAP_FEBRUARY_END - 1_000);
		Decision lastMillisecond = take(MONTHLY, LEAP_FEBRUARY_END - 1);
		Decision nextPeriod = take(MONTHLY, LEAP_FEBRUARY_END);

		assertThat(lastSecond.allowed()).isFalse();
		assertThat(lastSecond.retryAfterMillis()).isEqualTo(1_000);
		assertThat(lastSecond.bindingWindow().resetAtMillis()).isEqualTo(LEAP_FEBRUARY_END);
		assertThat(lastSecond.bindingWindow().periodMillis()).as("29 days").isEqualTo(29 * 86_400_000L);
		assertThat(lastMillisecond.allowed()).isFalse();
		assertThat(lastMillisecond.retryAfterSeconds()).isEqualTo(1);
		assertThat(nextPeriod.allowed()).isTrue();
		assertThat(nextPeriod.bindingWindow().remaining()).isEqualTo(2);
		assertThat(nextPeriod.bindingWindow().resetAtMillis())
			.isEqualTo(Instant.parse("2024-03-31T22:00:00Z").toEpochMilli());
		assertThat(nextPeriod.bindingWindow().periodMillis()).as("31 days less the hour of summer time")
			.isEqualTo(31 * 86_400_000L - 3_600_000L);
	}

	@Test
	void calendarWhenTheClockGoesBackAcrossThePeriodEndShouldKeepCountingInTheNewestPeriod() {
		take(MONTHLY, LEAP_FEBRUARY_END);
		Decision back = take(MONTHLY, LEAP_FEBRUARY_END - 1);

		assertThat(back.allowed()).isTrue();
		assertThat(back.bindingWindow().remaining()).isEqualTo(1);
		assertThat(store.peek(MONTHLY, key, LEAP_FEBRUARY_END - 2).bounds().get(0).remaining()).isEqualTo(1);
	}

	@Test
	void calendarWhenMixedWithAFixedWindowAndTheConcurrencyBoundShouldDecideInOneStep() {
		Budget mixed = Budget.builder("calendar-mixed")
			.window(Window.calendar("day", 3,
					CalendarPeriod.of(CalendarPeriod.Unit.DAY, ZoneId.of("America/New_York"))))
			.window("minute", 2, Duration.ofMinutes(1))
			.concurrency(1, Duration.ofSeconds(30))
			.build();
		// 10 March 2024 in New York: 23 hours, from 05:00 to 04:00 the next day in UTC
		long dayStart = Instant.parse("2024-03-10T05:00:00Z").toEpochMilli();
		long dayEnd = Instant.parse("2024-03-11T04:00:00Z").toEpochMilli();

		Decision first = store.take(mixed, key, 1, true, dayStart);
		Decision leaseHeld = store.take(mixed, key, 1, true, dayStart + 1);
		Decision cheap = store.take(mixed, key, 1, false, dayStart + 2);
		Decision minuteFull = store.take(mixed, key, 1, false, dayStart + 3);
		Decision third = store.take(mixed, key, 1, false, dayStart + 60_000);
		Decision dayFull = store.take(mixed, key, 1, false, dayStart + 120_000);

		assertThat(first.allowed()).isTrue();
		assertThat(first.verdicts().get(0).resetAtMillis()).isEqualTo(dayEnd);
		assertThat(first.verdicts().get(0).periodMillis()).isEqualTo(23 * 3_600_000L);
		assertThat(leaseHeld.allowed()).isFalse();
		assertThat(leaseHeld.refusingBound()).map(BoundVerdict::name).contains(BoundNames.CONCURRENCY);
		assertThat(cheap.allowed()).isTrue();
		assertThat(minuteFull.allowed()).isFalse();
		assertThat(minuteFull.refusingBound()).map(BoundVerdict::name).contains("minute");
		assertThat(third.allowed()).isTrue();
		assertThat(dayFull.allowed()).isFalse();
		assertThat(dayFull.refusingBound()).map(BoundVerdict::name).contains("day");
		assertThat(dayFull.retryAfterMillis()).isEqualTo(dayEnd - dayStart - 120_000);
	}

	@Test
	void calendarWhenUsageReachesItsThresholdsShouldReportEachOncePerPeriod() {
		Budget notifying = Budget.builder("notifying")
			.window(Window
				.calendar("month", 10, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin")))
				.withNotifyAt(NotifyAt.of(List.of(50, 80, 100))))
			.build();
		long t = LEAP_FEBRUARY_END - 86_400_000L;

		List<List<Integer>> reported = new ArrayList<>();
		for (long cost : new long[] { 4, 1, 4, 1, 1 }) {
			reported.add(percents(store.take(notifying, key, cost, false, t++)));
		}
		Decision nextPeriod = store.take(notifying, key, 5, false, LEAP_FEBRUARY_END);

		// 4, 5 (50 %), 9 (80 %), 10 (100 %), then refused at 10
		assertThat(reported).containsExactly(List.of(), List.of(50), List.of(80), List.of(100), List.of());
		assertThat(nextPeriod.crossings()).singleElement().satisfies((crossing) -> {
			assertThat(crossing.percent()).isEqualTo(50);
			assertThat(crossing.budget()).isEqualTo("notifying");
			assertThat(crossing.key()).isEqualTo(key);
			assertThat(crossing.window()).isEqualTo("month");
			assertThat(crossing.usage()).isEqualTo(5);
			assertThat(crossing.limit()).isEqualTo(10);
			assertThat(crossing.periodEndMillis()).isEqualTo(Instant.parse("2024-03-31T22:00:00Z").toEpochMilli());
		});
		assertThat(store.peek(notifying, key, LEAP_FEBRUARY_END + 1).bounds().get(0).remaining()).isEqualTo(5);
	}

	@Test
	void calendarWhenOneRequestCrossesSeveralThresholdsShouldReportEveryOne() {
		Budget notifying = Budget.builder("notifying-jump")
			.window(Window.calendar("day", 4, CalendarPeriod.of(CalendarPeriod.Unit.DAY, ZoneId.of("UTC")))
				.withNotifyAt(NotifyAt.of(List.of(25, 50, 100))))
			.countRefused(true)
			.build();

		Decision jump = store.take(notifying, key, 3, false, T0);
		Decision refusedButCounted = store.take(notifying, key, 2, false, T0 + 1);

		assertThat(percents(jump)).containsExactly(25, 50);
		assertThat(refusedButCounted.allowed()).isFalse();
		assertThat(percents(refusedButCounted)).containsExactly(100);
		assertThat(store.take(notifying, key, 1, false, T0 + 2).crossings()).isEmpty();
	}

	@Test
	void fixedWindowWhenUsageReachesItsThresholdsShouldReportEachOncePerWindow() {
		Budget notifying = Budget.builder("notifying-fixed")
			.window(Window.of("minute", 10, Duration.ofMinutes(1)).withNotifyAt(NotifyAt.of(List.of(50, 80, 100))))
			.build();
		long start = Window.of("minute", 10, Duration.ofMinutes(1)).resetAt(T0);

		List<List<Integer>> reported = new ArrayList<>();
		for (long cost : new long[] { 4, 1, 4, 1, 1 }) {
			reported.add(percents(store.take(notifying, key, cost, false, start + reported.size())));
		}
		Decision nextWindow = store.take(notifying, key, 5, false, start + 60_000);

		// 4, 5 (50 %), 9 (80 %), 10 (100 %), then refused at 10; the next minute afresh
		assertThat(reported).containsExactly(List.of(), List.of(50), List.of(80), List.of(100), List.of());
		assertThat(nextWindow.crossings()).singleElement().satisfies((crossing) -> {
			assertThat(crossing.percent()).isEqualTo(50);
			assertThat(crossing.window()).isEqualTo("minute");
			assertThat(crossing.usage()).isEqualTo(5);
			assertThat(crossing.limit()).isEqualTo(10);
			assertThat(crossing.periodEndMillis()).isEqualTo(start + 120_000);
		});
	}

	@Test
	void fixedWindowWithThresholdsBesideAnotherFixedWindowShouldReportOnlyItsOwn() {
		Budget notifying = Budget.builder("notifying-two-fixed")
			.window("second", 3, Duration.ofSeconds(1))
			.window(Window.of("hour", 6, Duration.ofHours(1)).withNotifyAt(NotifyAt.of(List.of(50))))
			.build();
		long start = Window.of("hour", 6, Duration.ofHours(1)).resetAt(T0) - 3_600_000L;

		Decision first = store.take(notifying, key, 2, false, start);
		Decision crossing = store.take(notifying, key, 1, false, start + 1_000);
		Decision after = store.take(notifying, key, 1, false, start + 2_000);

		assertThat(percents(first)).isEmpty();
		assertThat(crossing.crossings()).singleElement().satisfies((reached) -> {
			assertThat(reached.window()).isEqualTo("hour");
			assertThat(reached.usage()).isEqualTo(3);
		});
		assertThat(percents(after)).isEmpty();
	}

	@Test
	void takeSliceWhenSlicesReachAFixedWindowsThresholdsShouldReportEachOnceWhereTheyAreCounted() {
		Budget notifying = Budget.builder("notifying-sliced")
			.window(Window.of("minute", 100, Duration.ofMinutes(1)).withNotifyAt(NotifyAt.of(List.of(50, 80, 100))))
			.slices(new SliceTerms(20, Duration.ofSeconds(1)))
			.build();
		SliceTerms terms = notifying.slices().orElseThrow();
		long start = Window.of("minute", 100, Duration.ofMinutes(1)).resetAt(T0) - 60_000L;

		List<ThresholdCrossing> reported = new ArrayList<>();
		long counted = 0;
		for (int i = 0; i < 200; i++) {
			Slice slice = store.takeSlice(notifying, key, 1, terms, start + i);
			if (!slice.decision().allowed()) {
				break;
			}
			counted += slice.units();
			for (ThresholdCrossing crossing : slice.decision().crossings()) {
				assertThat(crossing.usage()).as("reached by the units counted so far").isEqualTo(counted);
				reported.add(crossing);
			}
		}

		assertThat(counted).as("every unit of the minute counted in some slice").isEqualTo(100);
		assertThat(reported).extracting(ThresholdCrossing::percent).containsExactly(50, 80, 100);
		assertThat(store.take(notifying, key, 1, false, start + 300).crossings()).isEmpty();
	}

	private static List<Integer> percents(Decision decision) {
		return decision.crossings().stream().map(ThresholdCrossing::percent).toList();
	}

	@Test
	void resetWhenKeyHasCountersShouldForgetEveryAlgorithm() {
		Budget mixed = Budget.builder("mixed-reset")
			.window(Window.sliding("minute", 1, Duration.ofMinutes(1)))
			.window(Window.tokenBucket("burst", 1, Duration.ofSeconds(10)))
			.build();
		take(mixed, T0);
		assertThat(take(mixed, T0 + 1).allowed()).isFalse();

		store.reset(mixed, key);

		assertThat(take(mixed, T0 + 2).allowed()).isTrue();
	}

}
