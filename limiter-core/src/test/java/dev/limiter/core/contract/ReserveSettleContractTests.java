package dev.limiter.core.contract;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
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
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.Settlement;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Windows in a unit other than requests (ADR 0012): an estimate reserved with the
 * request's other windows in one step, the actual amount settled afterwards on the window
 * instance the reservation counted in, for each algorithm. Every {@link RateLimitStore}
 * that counts units extends this class and passes it unchanged. A store that sends
 * settlements without waiting must still apply them in order with the same caller's next
 * command, which is what these tests read back with.
 */
public abstract class ReserveSettleContractTests {

	/** An instant on an hour boundary. */
	protected static final long T0 = 1_699_999_200_000L;

	/** The sample's budget: 60 requests and 2,000 tokens a minute. */
	protected static final Budget COMPLETION = Budget.builder("completion")
		.window("minute", 60, Duration.ofMinutes(1))
		.window(Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	/** 1,000 tokens in any 10 s, in buckets of 1 s. */
	protected static final Budget SLIDING_TOKENS = Budget.builder("sliding-tokens")
		.window(Window.sliding("tens", 1_000, Duration.ofSeconds(10)).inUnit("tokens"))
		.build();

	/** A bucket of 1,000 tokens refilled at 1,000 per 10 s: one every 10 ms. */
	protected static final Budget BUCKET_TOKENS = Budget.builder("bucket-tokens")
		.window(Window.tokenBucket("tens", 1_000, Duration.ofSeconds(10)).inUnit("tokens"))
		.build();

	/** 60 requests a minute and 10,000 tokens a calendar month in Berlin. */
	protected static final Budget MONTHLY_TOKENS = Budget.builder("monthly-tokens")
		.window("minute", 60, Duration.ofMinutes(1))
		.window(Window
			.calendar("month", 10_000, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin")))
			.inUnit("tokens"))
		.build();

	/** The end of February 2024 in Berlin. */
	private static final long FEBRUARY_END = Instant.parse("2024-02-29T23:00:00Z").toEpochMilli();

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

	private Decision reserve(Budget budget, long estimate, long now) {
		return store.reserve(budget, key, budget.amounts(1, Map.of("tokens", estimate)), false, now);
	}

	private Reservation reserved(Budget budget, long estimate, long now) {
		Decision decision = reserve(budget, estimate, now);
		assertThat(decision.allowed()).as("reservation at %d", now).isTrue();
		return Reservation.of(budget, key, decision, budget.amounts(1, Map.of("tokens", estimate))).orElseThrow();
	}

	private void settle(Reservation reservation, long tokens, long now) {
		reservation.settle(Map.of("tokens", tokens)).ifPresent((s) -> settled(store, s, now));
	}

	/**
	 * Settles and waits for the store to say it is done: a store may send a settlement
	 * without waiting, and the test reads its effect next, perhaps on another connection.
	 */
	protected static List<ThresholdCrossing> settled(RateLimitStore store, Settlement settlement, long now) {
		try {
			return store.settle(settlement, now).toCompletableFuture().get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new AssertionError("settlement failed", ex);
		}
	}

	private BoundVerdict window(Budget budget, String name, long now) {
		KeyState state = store.peek(budget, key, now);
		return state.bounds().stream().filter((b) -> b.name().equals(name)).findFirst().orElseThrow();
	}

	@Test
	void reserveWhenEstimateFitsShouldCountOneRequestAndTheEstimate() {
		Decision decision = reserve(COMPLETION, 100, T0 + 1_000);

		assertThat(decision.allowed()).isTrue();
		assertThat(decision.verdicts().get(0).remaining()).isEqualTo(59);
		assertThat(decision.verdicts().get(1).remaining()).isEqualTo(1_900);
	}

	@Test
	void reserveWhenEstimateExceedsTheWindowShouldReserveWhatItHoldsAndSettleTheActualInFull() {
		Budget small = Budget.builder("small")
			.window("minute", 60, Duration.ofMinutes(1))
			.window(Window.of("tokens", 50, Duration.ofMinutes(1)).inUnit("tokens"))
			.build();
		// a budget chosen at run time: the route's estimate of 100 is capped at the 50
		// the window holds, and what the handler used is charged in full
		long[] amounts = small.reservedAmounts(1, Map.of("tokens", 100L));
		Decision admitted = store.reserve(small, key, amounts, false, T0 + 1_000);
		assertThat(admitted.allowed()).isTrue();
		assertThat(window(small, "tokens", T0 + 1_100).remaining()).isZero();
		settle(Reservation.of(small, key, admitted, amounts).orElseThrow(), 20, T0 + 1_200);
		assertThat(window(small, "tokens", T0 + 1_300).remaining()).isEqualTo(30);
		Decision again = store.reserve(small, key, small.reservedAmounts(1, Map.of("tokens", 30L)), false, T0 + 1_400);
		settle(Reservation.of(small, key, again, small.reservedAmounts(1, Map.of("tokens", 30L))).orElseThrow(), 90,
				T0 + 1_500);

		Decision refused = store.reserve(small, key, amounts, false, T0 + 2_000);

		// 110 used of 50: the excess is carried, the next minute starts at 60 and the one
		// after at 10, which leaves no room for 50; the third is clear
		assertThat(refused.allowed()).isFalse();
		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains("tokens");
		assertThat(refused.retryAfterMillis()).isEqualTo(178_000);
		assertThat(store.reserve(small, key, amounts, false, T0 + 60_000).allowed()).isFalse();
		assertThat(store.reserve(small, key, amounts, false, T0 + 120_000).allowed()).isFalse();
		assertThat(store.reserve(small, key, amounts, false, T0 + 180_000).allowed()).isTrue();
	}

	@Test
	void settleWhenActualExceedsWhatWasLeftShouldTakeTheWindowOverAndRefuseUntilItsEnd() {
		settle(reserved(COMPLETION, 100, T0 + 1_000), 1_500, T0 + 1_100);
		assertThat(window(COMPLETION, "tokens", T0 + 1_200).remaining()).isEqualTo(500);
		settle(reserved(COMPLETION, 100, T0 + 2_000), 600, T0 + 2_100);

		Decision refused = reserve(COMPLETION, 100, T0 + 3_000);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains("tokens");
		assertThat(refused.retryAfterMillis()).isEqualTo(57_000);
		assertThat(refused.verdicts().get(1).remaining()).isZero();
		assertThat(refused.verdicts().get(0).remaining()).isEqualTo(58);
		assertThat(reserve(COMPLETION, 100, T0 + 60_000).allowed()).isTrue();
	}

	@Test
	void settleWhenActualIsBelowTheEstimateShouldGiveTheRestBack() {
		settle(reserved(COMPLETION, 100, T0 + 1_000), 30, T0 + 1_100);

		assertThat(window(COMPLETION, "tokens", T0 + 1_200).remaining()).isEqualTo(1_970);
		assertThat(window(COMPLETION, "minute", T0 + 1_200).remaining()).isEqualTo(59);
	}

	@Test
	void settleWhenNothingIsReportedShouldKeepTheEstimate() {
		Reservation reservation = reserved(COMPLETION, 100, T0 + 1_000);
		reservation.settle(Map.of()).ifPresent((s) -> settled(store, s, T0 + 1_100));

		assertThat(window(COMPLETION, "tokens", T0 + 1_200).remaining()).isEqualTo(1_900);
		assertThat(reservation.settled()).isTrue();
	}

	@Test
	void settleTwiceShouldApplyOnlyTheFirst() {
		Reservation reservation = reserved(COMPLETION, 100, T0 + 1_000);
		settle(reservation, 300, T0 + 1_100);
		settle(reservation, 900, T0 + 1_200);

		assertThat(reservation.settle(Map.of("tokens", 5L))).isEmpty();
		assertThat(window(COMPLETION, "tokens", T0 + 1_300).remaining()).isEqualTo(1_700);
	}

	@Test
	void settleOfARefusedRequestShouldHaveNothingToSettle() {
		settle(reserved(COMPLETION, 100, T0 + 1_000), 2_000, T0 + 1_100);
		Decision refused = reserve(COMPLETION, 100, T0 + 2_000);

		assertThat(refused.allowed()).isFalse();
		assertThat(Reservation.of(COMPLETION, key, refused, COMPLETION.amounts(1, Map.of("tokens", 100L)))).isEmpty();
		assertThat(window(COMPLETION, "tokens", T0 + 2_100).remaining()).isZero();
		assertThat(window(COMPLETION, "minute", T0 + 2_100).remaining()).isEqualTo(59);
	}

	@Test
	void settleAfterTheWindowEndedShouldBeDroppedNotChargedToTheNextWindow() {
		Reservation late = reserved(COMPLETION, 100, T0 + 59_000);
		reserved(COMPLETION, 100, T0 + 60_500);
		settle(late, 1_900, T0 + 61_000);

		assertThat(window(COMPLETION, "tokens", T0 + 61_100).remaining()).isEqualTo(1_900);
	}

	@Test
	void settleAfterAResetShouldBeDropped() {
		Reservation reservation = reserved(COMPLETION, 100, T0 + 1_000);
		store.reset(COMPLETION, key);
		settle(reservation, 1_000, T0 + 1_100);

		assertThat(window(COMPLETION, "tokens", T0 + 1_200).remaining()).isEqualTo(2_000);
	}

	@Test
	void takeOnABudgetWithUnitsShouldReserveOnePerUnit() {
		Decision decision = store.take(COMPLETION, key, 1, false, T0 + 1_000);

		assertThat(decision.verdicts().get(1).remaining()).isEqualTo(1_999);
	}

	@Test
	void reserveWhenAnEstimateExceedsItsWindowShouldBeRejectedBeforeCounting() {
		assertThatIllegalArgumentException().isThrownBy(() -> reserve(COMPLETION, 2_001, T0 + 1_000));
		assertThat(window(COMPLETION, "minute", T0 + 1_100).remaining()).isEqualTo(60);
	}

	@Test
	void settleConcurrentlyShouldCountEveryActualAmountExactly() throws Exception {
		Budget budget = Budget.builder("concurrent-tokens")
			.window("minute", 10_000, Duration.ofMinutes(1))
			.window(Window.of("tokens", 1_000_000, Duration.ofMinutes(1)).inUnit("tokens"))
			.build();
		int threads = 32;
		int perThread = 20;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Long>> sums = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			sums.add(pool.submit(() -> {
				start.await();
				long sum = 0;
				for (int i = 0; i < perThread; i++) {
					long[] amounts = budget.amounts(1, Map.of("tokens", 50L));
					Decision decision = store.reserve(budget, key, amounts, false, T0 + 1_000);
					Reservation reservation = Reservation.of(budget, key, decision, amounts).orElseThrow();
					long actual = (thread * 7L + i * 13L) % 200;
					reservation.settle(Map.of("tokens", actual)).ifPresent((s) -> settled(store, s, T0 + 1_001));
					sum += actual;
				}
				return sum;
			}));
		}
		start.countDown();
		long total = 0;
		for (Future<Long> sum : sums) {
			total += sum.get(60, TimeUnit.SECONDS);
		}
		pool.shutdown();

		assertThat(window(budget, "tokens", T0 + 2_000).remaining()).isEqualTo(1_000_000 - total);
		assertThat(window(budget, "minute", T0 + 2_000).remaining()).isEqualTo(10_000 - threads * perThread);
	}

	@Test
	void settleOnASlidingWindowShouldChargeTheBucketItWasReservedIn() {
		settle(reserved(SLIDING_TOKENS, 100, T0 + 1_500), 900, T0 + 4_000);
		Decision refused = reserve(SLIDING_TOKENS, 200, T0 + 5_000);

		assertThat(refused.allowed()).isFalse();
		// bucket 1 (1 s to 2 s) counts until 12 s
		assertThat(refused.retryAfterMillis()).isEqualTo(7_000);
		assertThat(reserve(SLIDING_TOKENS, 200, T0 + 12_000).allowed()).isTrue();
	}

	@Test
	void settleOnASlidingWindowAfterItsBucketAgedOutShouldBeDropped() {
		Reservation old = reserved(SLIDING_TOKENS, 100, T0 + 1_500);
		reserved(SLIDING_TOKENS, 100, T0 + 11_500);
		settle(old, 900, T0 + 12_000);

		assertThat(window(SLIDING_TOKENS, "tens", T0 + 12_100).remaining()).isEqualTo(900);
	}

	@Test
	void settleOnATokenBucketShouldMoveItsArrivalTimeEitherWay() {
		settle(reserved(BUCKET_TOKENS, 100, T0 + 1_000), 1_100, T0 + 1_000);
		Decision refused = reserve(BUCKET_TOKENS, 1, T0 + 1_000);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.verdicts().get(0).remaining()).isZero();
		// 1,100 tokens owed in a bucket of 1,000: 101 refills of 10 ms before one fits
		assertThat(refused.retryAfterMillis()).isEqualTo(1_010);
		Reservation refunded = reserved(BUCKET_TOKENS, 1, T0 + 2_010);
		assertThat(window(BUCKET_TOKENS, "tens", T0 + 2_010).remaining()).isZero();
		settle(refunded, 0, T0 + 2_010);
		assertThat(window(BUCKET_TOKENS, "tens", T0 + 2_010).remaining()).isEqualTo(1);
	}

	@Test
	void settleWhenReportsAddUpBeyondTheLongRangeShouldSaturateNotWrapIntoRoom() {
		settle(reserved(COMPLETION, 100, T0 + 1_000), 1_900, T0 + 1_100);
		settle(reserved(COMPLETION, 100, T0 + 2_000), Long.MAX_VALUE, T0 + 2_100);

		Decision refused = reserve(COMPLETION, 1, T0 + 3_000);

		// clamped at the ceiling (2^50) instead of wrapping to a count of 0; the excess
		// is
		// carried for longer than anyone waits, and the retry says so without wrapping
		assertThat(refused.allowed()).isFalse();
		assertThat(refused.verdicts().get(1).remaining()).isZero();
		assertThat(refused.retryAfterMillis()).isEqualTo(60_000 - 3_000 + SettlementBounds.MAX_KEEP_MILLIS);
		assertThat(reserve(COMPLETION, 1, T0 + 60_000 * 1_000L).allowed()).isFalse();
	}

	@Test
	void settleWhenASlidingWindowIsReportedTheLongRangeShouldSaturateNotWrapIntoRoom() {
		settle(reserved(SLIDING_TOKENS, 100, T0 + 1_000), 900, T0 + 1_100);
		settle(reserved(SLIDING_TOKENS, 1, T0 + 1_200), Long.MAX_VALUE, T0 + 1_300);

		Decision refused = reserve(SLIDING_TOKENS, 1, T0 + 2_000);

		assertThat(refused.allowed()).isFalse();
		assertThat(window(SLIDING_TOKENS, "tens", T0 + 2_000).remaining()).isZero();
	}

	@Test
	void settleWhenATokenBucketIsReportedBeyondTheLongRangeOfItsMillisShouldStayInDebt() {
		// 922,337,203,685,478 tokens of 10 ms each: the product wraps a long
		settle(reserved(BUCKET_TOKENS, 100, T0 + 1_000), Long.MAX_VALUE / 10_000 + 1, T0 + 1_000);

		Decision refused = reserve(BUCKET_TOKENS, 1, T0 + 2_000);

		// clamped at 2^50 / 10,000 tokens: a debt of 2^50 ms-tokens, paid at 1 token a 10
		// ms
		assertThat(refused.allowed()).isFalse();
		assertThat(refused.retryAfterMillis()).isGreaterThan(SettlementBounds.MAX_UNITS / 1_000 - 20_000)
			.isLessThanOrEqualTo(SettlementBounds.MAX_UNITS / 1_000);
		settle(reserved(BUCKET_TOKENS, 1, T0 + 3_000 + refused.retryAfterMillis() + 1_000), 0,
				T0 + 4_000 + refused.retryAfterMillis());
	}

	@Test
	void settleWhenSixteenReservationsInFlightEachReportTheWholeWindowShouldCarryTheExcessUntilPaid() {
		List<Reservation> inFlight = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			inFlight.add(reserved(COMPLETION, 1, T0 + 1_000));
		}
		inFlight.forEach((reservation) -> settle(reservation, 2_000, T0 + 2_000));

		// 16 x 2,000 counted against 2,000 a minute: over by in flight x (report -
		// estimate) minus the room left, 16 x 1,999 - 1,984 = 30,000, carried into the
		// minutes after until paid: the k-th starts at 32,000 - 2,000 k
		assertThat(window(COMPLETION, "tokens", T0 + 3_000).remaining()).isZero();
		Decision refused = reserve(COMPLETION, 1, T0 + 3_000);
		assertThat(refused.retryAfterMillis()).isEqualTo(16 * 60_000 - 3_000);
		for (int minute = 1; minute < 16; minute++) {
			assertThat(reserve(COMPLETION, 1, T0 + minute * 60_000L + 59_000).allowed()).as("minute %d", minute)
				.isFalse();
		}
		assertThat(reserve(COMPLETION, 1, T0 + 16 * 60_000L).allowed()).isTrue();
		assertThat(window(COMPLETION, "tokens", T0 + 16 * 60_000L).remaining()).isEqualTo(1_999);
	}

	@Test
	void settleOnACalendarWindowShouldChargeThePeriodItWasReservedIn() {
		Reservation reservation = reserved(MONTHLY_TOKENS, 100, FEBRUARY_END - 2_000);
		settle(reservation, 2_500, FEBRUARY_END - 1_000);

		assertThat(window(MONTHLY_TOKENS, "month", FEBRUARY_END - 500).remaining()).isEqualTo(7_500);
		assertThat(window(MONTHLY_TOKENS, "month", FEBRUARY_END - 500).resetAtMillis()).isEqualTo(FEBRUARY_END);
	}

	@Test
	void settleOnACalendarWindowAfterItsPeriodEndedShouldBeDroppedNotChargedToTheNextPeriod() {
		Reservation late = reserved(MONTHLY_TOKENS, 100, FEBRUARY_END - 1);
		reserved(MONTHLY_TOKENS, 100, FEBRUARY_END + 10);
		settle(late, 5_000, FEBRUARY_END + 20);

		assertThat(window(MONTHLY_TOKENS, "month", FEBRUARY_END + 30).remaining()).isEqualTo(9_900);
	}

	@Test
	void settleWhenACalendarPeriodIsReportedBeyondItsLimitShouldRefuseUntilItsEndAndCarryNothingOver() {
		Reservation reservation = reserved(MONTHLY_TOKENS, 100, FEBRUARY_END - 60_000);
		settle(reservation, 12_000, FEBRUARY_END - 50_000);

		Decision refused = reserve(MONTHLY_TOKENS, 1, FEBRUARY_END - 1);
		Decision nextPeriod = reserve(MONTHLY_TOKENS, 1, FEBRUARY_END);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains("month");
		assertThat(refused.retryAfterMillis()).isEqualTo(1);
		assertThat(nextPeriod.allowed()).isTrue();
		assertThat(nextPeriod.verdicts().get(1).remaining()).isEqualTo(9_999);
	}

	@Test
	void settleWhenItTakesACalendarWindowAcrossAThresholdShouldReportItOnceItself() {
		Budget notifying = Budget.builder("notifying-tokens")
			.window(Window
				.calendar("month", 1_000, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin")))
				.inUnit("tokens")
				.withNotifyAt(NotifyAt.of(List.of(80, 100))))
			.build();
		Decision first = store.reserve(notifying, key, new long[] { 100 }, false, FEBRUARY_END - 10_000);
		Reservation reservation = Reservation.of(notifying, key, first, new long[] { 100 }).orElseThrow();
		List<ThresholdCrossing> settled = settled(store, reservation.settle(Map.of("tokens", 1_200L)).orElseThrow(),
				FEBRUARY_END - 9_000);

		Decision refused = store.reserve(notifying, key, new long[] { 1 }, false, FEBRUARY_END - 8_000);

		assertThat(first.crossings()).isEmpty();
		assertThat(settled).extracting(ThresholdCrossing::percent).containsExactly(80, 100);
		assertThat(settled).extracting(ThresholdCrossing::usage).containsOnly(1_200L);
		assertThat(settled).extracting(ThresholdCrossing::periodEndMillis).containsOnly(FEBRUARY_END);
		assertThat(settled).extracting(ThresholdCrossing::key).containsOnly(key);
		assertThat(refused.allowed()).isFalse();
		assertThat(refused.crossings()).isEmpty();
	}

	@Test
	void settleWhenItTakesAFixedWindowAcrossAThresholdShouldReportItOnceAndTheNextWindowAfresh() {
		Budget notifying = Budget.builder("notifying-fixed-tokens")
			.window(Window.of("tokens", 1_000, Duration.ofMinutes(1))
				.inUnit("tokens")
				.withNotifyAt(NotifyAt.of(List.of(50, 90))))
			.build();
		Reservation first = reserved(notifying, 300, T0 + 1_000);
		Reservation second = reserved(notifying, 100, T0 + 2_000);
		List<ThresholdCrossing> up = settled(store, first.settle(Map.of("tokens", 450L)).orElseThrow(), T0 + 3_000);
		List<ThresholdCrossing> down = settled(store, second.settle(Map.of("tokens", 10L)).orElseThrow(), T0 + 4_000);
		Decision below90 = reserve(notifying, 400, T0 + 5_000);
		Decision nextWindow = reserve(notifying, 600, T0 + 61_000);

		// 300 + 100 reserved, the first settled at 450: 550 (50 %); a refund of 90: 460;
		// 400 more: 860, below 90 % (900)
		assertThat(up).extracting(ThresholdCrossing::percent).containsExactly(50);
		assertThat(up).extracting(ThresholdCrossing::usage).containsExactly(550L);
		assertThat(down).isEmpty();
		assertThat(below90.allowed()).isTrue();
		assertThat(below90.crossings()).isEmpty();
		assertThat(nextWindow.crossings()).extracting(ThresholdCrossing::percent).containsExactly(50);
		assertThat(nextWindow.crossings()).extracting(ThresholdCrossing::periodEndMillis)
			.containsExactly(notifying.windows().get(0).resetAt(T0 + 61_000));
	}

	@Test
	void settleWhenThreadsReserveAndSettleConcurrentlyShouldReportEachThresholdOnce() throws Exception {
		Budget notifying = Budget.builder("notifying-concurrent")
			.window(Window.of("hour", 10_000, Duration.ofHours(1))
				.inUnit("tokens")
				.withNotifyAt(NotifyAt.of(List.of(25, 50, 80, 100))))
			.build();
		long start = notifying.windows().get(0).resetAt(T0) - 3_600_000L;
		List<ThresholdCrossing> reported = Collections.synchronizedList(new ArrayList<>());
		List<ThresholdCrossing> bySettlements = Collections.synchronizedList(new ArrayList<>());
		ExecutorService pool = Executors.newFixedThreadPool(32);
		CountDownLatch go = new CountDownLatch(1);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int t = 0; t < 32; t++) {
				long at = start + t;
				running.add(pool.submit(() -> {
					go.await();
					for (int i = 0; i < 5; i++) {
						Decision decision = store.reserve(notifying, key, new long[] { 1 }, false, at);
						reported.addAll(decision.crossings());
						Reservation reservation = Reservation.of(notifying, key, decision, new long[] { 1 })
							.orElse(null);
						if (reservation != null) {
							List<ThresholdCrossing> settled = settled(store,
									reservation.settle(Map.of("tokens", 100L)).orElseThrow(), at + 1);
							reported.addAll(settled);
							bySettlements.addAll(settled);
						}
					}
					return null;
				}));
			}
			go.countDown();
			for (Future<?> future : running) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}

		// 160 reservations of 100 used: 16,000 tokens tried against 10,000
		assertThat(reported).extracting(ThresholdCrossing::percent).containsExactlyInAnyOrder(25, 50, 80, 100);
		// 99 of every 100 tokens arrive by a settlement: settlements cross thresholds
		assertThat(bySettlements).isNotEmpty();
	}

	@Test
	void settleWhenItsWindowInstanceEndedShouldReportNothing() {
		Budget notifying = Budget.builder("notifying-late")
			.window(Window.of("tokens", 100, Duration.ofMinutes(1))
				.inUnit("tokens")
				.withNotifyAt(NotifyAt.of(List.of(50))))
			.build();
		Reservation reservation = reserved(notifying, 10, T0 + 1_000);

		List<ThresholdCrossing> late = settled(store, reservation.settle(Map.of("tokens", 90L)).orElseThrow(),
				T0 + 60_000);

		assertThat(late).isEmpty();
		assertThat(reserve(notifying, 10, T0 + 60_001).crossings()).isEmpty();
	}

	@Test
	void settleWhenAReportExceedsTheWindowsMaxReportShouldCountTheMaximum() {
		Budget capped = Budget.builder("capped")
			.window("minute", 60, Duration.ofMinutes(1))
			.window(Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens").withMaxReport(500L))
			.build();
		List<Reservation> inFlight = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			inFlight.add(reserved(capped, 1, T0 + 1_000));
		}
		inFlight.forEach((reservation) -> settle(reservation, 2_000, T0 + 2_000));

		// 16 x 500 = 8,000: the next minutes start at 6,000, 4,000, 2,000, then clear
		assertThat(reserve(capped, 1, T0 + 3 * 60_000L + 1_000).allowed()).isFalse();
		assertThat(reserve(capped, 1, T0 + 4 * 60_000L).allowed()).isTrue();
	}

}
