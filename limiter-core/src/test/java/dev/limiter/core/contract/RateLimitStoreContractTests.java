package dev.limiter.core.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.limiter.core.BoundNames;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The counting rule of ADR 0001 (fixed wall-clock windows, cost, leases) at exact
 * milliseconds, a clock that goes back included. Every {@link RateLimitStore} extends
 * this class and passes it unchanged; that is what "the same arithmetic on every store"
 * means.
 */
public abstract class RateLimitStoreContractTests {

	/**
	 * An instant on an hour boundary, so that minute and hour windows both start here.
	 */
	protected static final long T0 = 1_699_999_200_000L;

	protected static final Budget STANDARD = Budget.builder("standard")
		.window("minute", 600, Duration.ofMinutes(1))
		.window("hour", 36_000, Duration.ofHours(1))
		.concurrency(10, Duration.ofSeconds(30))
		.build();

	protected RateLimitStore store;

	protected String key;

	/**
	 * A fresh store; it may share a backend with earlier tests, since every test uses its
	 * own key.
	 */
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

	@Test
	void takeWhenLimitIsSpentShouldRefuseWithTheTimeLeftInTheMinute() {
		for (int i = 0; i < 600; i++) {
			Decision d = take(STANDARD, T0 + 1_000 + i);
			assertThat(d.allowed()).as("request %d", i + 1).isTrue();
		}
		Decision refused = take(STANDARD, T0 + 20_500);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains("minute");
		assertThat(refused.retryAfterMillis()).isEqualTo(39_500);
		assertThat(refused.retryAfterSeconds()).isEqualTo(40);
		assertThat(refused.bindingWindow().name()).isEqualTo("minute");
		assertThat(refused.bindingWindow().remaining()).isZero();
		assertThat(refused.bindingWindow().resetAtMillis()).isEqualTo(T0 + 60_000);
		assertThat(refused.degraded()).isFalse();
		assertThat(refused.counted()).isTrue();
	}

	@Test
	void takeWhenAdmittedShouldCountRemainingDownAndResetAtTheEndOfTheWindow() {
		Decision first = take(STANDARD, T0 + 59_999);

		assertThat(first.verdicts())
			.extracting(BoundVerdict::name, BoundVerdict::remaining, BoundVerdict::resetAtMillis)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("minute", 599L, T0 + 60_000),
					org.assertj.core.groups.Tuple.tuple("hour", 35_999L, T0 + 3_600_000));
		assertThat(first.retryAfterMillis()).isZero();
		assertThat(first.retryAfterSeconds()).isZero();
	}

	@Test
	void takeWhenANewWindowStartsShouldCountFromZeroAtItsBoundary() {
		Budget small = Budget.builder("small").window("minute", 3, Duration.ofMinutes(1)).build();
		for (int i = 0; i < 3; i++) {
			assertThat(take(small, T0 + 10_000).allowed()).isTrue();
		}
		assertThat(take(small, T0 + 59_999).allowed()).isFalse();

		Decision next = take(small, T0 + 60_000);

		assertThat(next.allowed()).isTrue();
		assertThat(next.bindingWindow().remaining()).isEqualTo(2);
		assertThat(next.bindingWindow().resetAtMillis()).isEqualTo(T0 + 120_000);
	}

	@Test
	void takeWhenTheHourLimitIsSpentOverMinutesShouldRefuse() {
		Budget budget = Budget.builder("spread")
			.window("minute", 1_000, Duration.ofMinutes(1))
			.window("hour", 36_000, Duration.ofHours(1))
			.build();
		for (int minute = 0; minute < 36; minute++) {
			for (int i = 0; i < 1_000; i++) {
				assertThat(take(budget, T0 + minute * 60_000L + i).allowed()).isTrue();
			}
		}
		long now = T0 + 36 * 60_000L + 5;

		Decision refused = take(budget, now);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains("hour");
		assertThat(refused.retryAfterMillis()).isEqualTo(T0 + 3_600_000 - now);
		assertThat(refused.bindingWindow().name()).isEqualTo("hour");
		assertThat(refused.verdicts().get(0).remaining()).isEqualTo(1_000);
	}

	@Test
	void takeWhenRefusedShouldNotMoveAnyCount() {
		Budget budget = Budget.builder("tight")
			.window("minute", 5, Duration.ofMinutes(1))
			.window("hour", 100, Duration.ofHours(1))
			.build();
		for (int i = 0; i < 5; i++) {
			take(budget, T0 + i);
		}
		for (int i = 0; i < 50; i++) {
			assertThat(take(budget, T0 + 100 + i).allowed()).isFalse();
		}

		KeyState state = store.peek(budget, key, T0 + 200);

		assertThat(state.bounds()).extracting(BoundVerdict::remaining).containsExactly(0L, 95L);
		assertThat(take(budget, T0 + 60_000).allowed()).isTrue();
	}

	@Test
	void takeWhenBudgetCountsRefusalsShouldSpendThemToo() {
		Budget budget = Budget.builder("strict")
			.window("minute", 5, Duration.ofMinutes(1))
			.window("hour", 100, Duration.ofHours(1))
			.countRefused(true)
			.build();
		for (int i = 0; i < 8; i++) {
			take(budget, T0 + i);
		}

		KeyState state = store.peek(budget, key, T0 + 200);

		assertThat(state.bounds()).extracting(BoundVerdict::remaining).containsExactly(0L, 92L);
	}

	@Test
	void takeWhenSeveralBoundsRefuseShouldRetryAfterTheLongestWait() {
		Budget budget = Budget.builder("both")
			.window("minute", 2, Duration.ofMinutes(1))
			.window("hour", 2, Duration.ofHours(1))
			.build();
		take(budget, T0);
		take(budget, T0 + 1);

		Decision refused = take(budget, T0 + 30_000);

		assertThat(refused.verdicts()).allMatch(BoundVerdict::refused);
		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains("hour");
		assertThat(refused.retryAfterMillis()).isEqualTo(3_600_000 - 30_000);
	}

	@Test
	void takeWhenCostIsGreaterThanOneShouldTakeThatManyUnits() {
		Budget budget = Budget.builder("costly").window("minute", 10, Duration.ofMinutes(1)).build();
		for (int i = 0; i < 3; i++) {
			assertThat(store.take(budget, key, 3, false, T0 + i).allowed()).isTrue();
		}

		Decision tooMuch = store.take(budget, key, 3, false, T0 + 10);
		Decision one = store.take(budget, key, 1, false, T0 + 11);

		assertThat(tooMuch.allowed()).isFalse();
		assertThat(tooMuch.bindingWindow().remaining()).isEqualTo(1);
		assertThat(one.allowed()).isTrue();
		assertThat(one.bindingWindow().remaining()).isZero();
	}

	@Test
	void takeWhenCostNearLongMaxShouldBeRejectedBeforeCounting() {
		Budget budget = Budget.builder("costly").window("minute", 10, Duration.ofMinutes(1)).build();
		assertThat(store.take(budget, key, 1, false, T0).allowed()).isTrue();

		assertThatIllegalArgumentException().isThrownBy(() -> store.take(budget, key, Long.MAX_VALUE, false, T0 + 1))
			.withMessageContaining("window 'minute'");
		assertThat(store.take(budget, key, 1, false, T0 + 2).bindingWindow().remaining()).isEqualTo(8);
	}

	@Test
	void takeWhenCostAboveAWindowLimitShouldBeRejectedNotRefusedForever() {
		Budget budget = Budget.builder("costly")
			.window("minute", 10, Duration.ofMinutes(1))
			.window("hour", 100, Duration.ofHours(1))
			.build();
		assertThatIllegalArgumentException().isThrownBy(() -> store.take(budget, key, 11, false, T0))
			.withMessageContaining("cost 11 exceeds the limit 10 of window 'minute'");
	}

	@Test
	void takeWhenEleventhExpensiveRequestIsConcurrentShouldWaitForTheEarliestLease() {
		List<Lease> leases = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			Decision d = store.take(STANDARD, key, 1, true, T0 + i * 100L);
			assertThat(d.allowed()).isTrue();
			assertThat(d.lease()).isPresent();
			assertThat(d.lease().get().expiresAtMillis()).isEqualTo(T0 + i * 100L + 30_000);
			leases.add(d.lease().get());
		}

		Decision refused = store.take(STANDARD, key, 1, true, T0 + 5_000);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.lease()).isEmpty();
		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains(BoundNames.CONCURRENCY);
		assertThat(refused.retryAfterMillis()).isEqualTo(25_000);
		assertThat(refused.verdicts()).filteredOn(BoundVerdict::concurrency).singleElement().satisfies(v -> {
			assertThat(v.limit()).isEqualTo(10);
			assertThat(v.remaining()).isZero();
		});
		assertThat(store.peek(STANDARD, key, T0 + 5_000).bounds().get(0).remaining())
			.as("a refusal by the concurrency bound spends nothing from the windows")
			.isEqualTo(590);
	}

	@Test
	void releaseWhenLeaseIsHeldShouldFreeItsSlot() {
		List<Lease> leases = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			leases.add(store.take(STANDARD, key, 1, true, T0 + i).lease().orElseThrow());
		}
		store.release(leases.get(3), T0 + 50);
		store.release(leases.get(3), T0 + 51);

		Decision admitted = store.take(STANDARD, key, 1, true, T0 + 60);
		Decision refused = store.take(STANDARD, key, 1, true, T0 + 61);

		assertThat(admitted.allowed()).isTrue();
		assertThat(refused.allowed()).isFalse();
	}

	@Test
	void leaseWhenExpiredShouldFreeItsSlot() {
		for (int i = 0; i < 10; i++) {
			store.take(STANDARD, key, 1, true, T0 + i);
		}
		assertThat(store.take(STANDARD, key, 1, true, T0 + 29_999).allowed()).isFalse();

		Decision afterExpiry = store.take(STANDARD, key, 1, true, T0 + 30_000);

		assertThat(afterExpiry.allowed()).isTrue();
		assertThat(afterExpiry.verdicts()).filteredOn(BoundVerdict::concurrency)
			.singleElement()
			.extracting(BoundVerdict::remaining)
			.isEqualTo(0L);
	}

	/** {@code lease: 3s}, {@code max: 2}: the budget of the lease-renewal tests. */
	private static final Budget RENEWED = Budget.builder("renewed")
		.window("minute", 600, Duration.ofMinutes(1))
		.concurrency(2, Duration.ofSeconds(3))
		.build();

	@Test
	void renewWhenTheLeasesAreLiveShouldHoldTheirSlotsPastTheirFirstExpiryUntilRenewalStops() {
		Lease first = store.take(RENEWED, key, 1, true, T0).lease().orElseThrow();
		Lease second = store.take(RENEWED, key, 1, true, T0).lease().orElseThrow();
		assertThat(store.take(RENEWED, key, 1, true, T0 + 1_000).allowed()).as("refused at 1 s").isFalse();

		// renewed every second, each time for a whole lease from then
		for (long at = T0 + 1_000; at <= T0 + 4_000; at += 1_000) {
			assertThat(store.renew(first, at + 3_000, at)).as("first renewed at %d", at - T0).isTrue();
			assertThat(store.renew(second, at + 3_000, at)).as("second renewed at %d", at - T0).isTrue();
		}

		assertThat(store.take(RENEWED, key, 1, true, T0 + 4_000).allowed()).as("still refused at 4 s").isFalse();
		// the instance dies after its renewal at 4 s: nobody renews again
		assertThat(store.take(RENEWED, key, 1, true, T0 + 6_999).allowed()).isFalse();
		Decision afterDeath = store.take(RENEWED, key, 1, true, T0 + 7_000);
		assertThat(afterDeath.allowed()).as("free 3 s after the last renewal").isTrue();
	}

	@Test
	void renewWhenTheLeaseExpiredOrWasReleasedShouldNotBringItBack() {
		Lease expired = store.take(RENEWED, key, 1, true, T0).lease().orElseThrow();
		Lease released = store.take(RENEWED, key, 1, true, T0 + 1).lease().orElseThrow();
		store.release(released, T0 + 2);

		assertThat(store.renew(released, T0 + 5_000, T0 + 3)).isFalse();
		assertThat(store.renew(expired, T0 + 6_000, T0 + 3_000)).as("expired at exactly its expiry").isFalse();

		assertThat(store.take(RENEWED, key, 1, true, T0 + 3_001).allowed()).isTrue();
		assertThat(store.take(RENEWED, key, 1, true, T0 + 3_002).allowed()).isTrue();
		assertThat(store.take(RENEWED, key, 1, true, T0 + 3_003).allowed()).isFalse();
	}

	@Test
	void renewWhenAskedForAnEarlierExpiryShouldNotShortenTheLease() {
		Lease lease = store.take(RENEWED, key, 1, true, T0).lease().orElseThrow();
		store.take(RENEWED, key, 1, true, T0);

		assertThat(store.renew(lease, T0 + 1_000, T0 + 500)).isTrue();

		assertThat(store.take(RENEWED, key, 1, true, T0 + 2_999).allowed()).isFalse();
	}

	@Test
	void renewWhenTheKeyWasNeverSeenShouldAnswerNotHeld() {
		assertThat(store.renew(new Lease("renewed", key, "no-such-lease", T0 + 3_000), T0 + 6_000, T0)).isFalse();
	}

	@Test
	void takeWhenRequestIsCheapShouldNeedNoLease() {
		for (int i = 0; i < 10; i++) {
			store.take(STANDARD, key, 1, true, T0 + i);
		}

		Decision cheap = take(STANDARD, T0 + 100);

		assertThat(cheap.allowed()).isTrue();
		assertThat(cheap.lease()).isEmpty();
		assertThat(cheap.verdicts()).noneMatch(BoundVerdict::concurrency);
	}

	@Test
	void takeWhenAWindowRefusesShouldTakeNoLease() {
		Budget budget = Budget.builder("leased")
			.window("minute", 1, Duration.ofMinutes(1))
			.concurrency(1, Duration.ofSeconds(30))
			.build();
		Lease held = store.take(budget, key, 1, true, T0).lease().orElseThrow();
		store.release(held, T0 + 1);

		Decision refused = store.take(budget, key, 1, true, T0 + 2);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains("minute");
		assertThat(store.peek(budget, key, T0 + 3).bounds()).filteredOn(BoundVerdict::concurrency)
			.singleElement()
			.extracting(BoundVerdict::remaining)
			.isEqualTo(1L);
	}

	@Test
	void peekWhenKeyIsCountedShouldReadWithoutCounting() {
		take(STANDARD, T0);
		take(STANDARD, T0 + 1);

		KeyState first = store.peek(STANDARD, key, T0 + 2);
		KeyState second = store.peek(STANDARD, key, T0 + 2);

		assertThat(first.bounds()).extracting(BoundVerdict::name, BoundVerdict::remaining)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("minute", 598L),
					org.assertj.core.groups.Tuple.tuple("hour", 35_998L),
					org.assertj.core.groups.Tuple.tuple(BoundNames.CONCURRENCY, 10L));
		assertThat(second.bounds()).isEqualTo(first.bounds());
		assertThat(take(STANDARD, T0 + 3).bindingWindow().remaining()).isEqualTo(597);
		assertThat(first.budget()).isEqualTo("standard");
		assertThat(first.key()).isEqualTo(key);
	}

	@Test
	void peekWhenKeyIsUnknownShouldShowFullBounds() {
		KeyState state = store.peek(STANDARD, key, T0 + 61_000);

		assertThat(state.bounds()).extracting(BoundVerdict::remaining).containsExactly(600L, 36_000L, 10L);
		assertThat(state.bounds().get(0).resetAtMillis()).isEqualTo(T0 + 120_000);
		assertThat(state.bounds()).noneMatch(BoundVerdict::refused);
	}

	@Test
	void resetWhenKeyHasCountersShouldForgetEveryOne() {
		Budget budget = Budget.builder("resettable").window("minute", 1, Duration.ofMinutes(1)).build();
		take(budget, T0);
		assertThat(take(budget, T0 + 1).allowed()).isFalse();

		store.reset(budget, key);

		assertThat(take(budget, T0 + 2).allowed()).isTrue();
	}

	@Test
	void takeWhenKeysOrBudgetsDifferShouldCountApart() {
		Budget one = Budget.builder("one").window("minute", 1, Duration.ofMinutes(1)).build();
		Budget two = Budget.builder("two").window("minute", 1, Duration.ofMinutes(1)).build();
		take(one, T0);

		assertThat(take(one, T0 + 1).allowed()).isFalse();
		assertThat(take(two, T0 + 2).allowed()).isTrue();
		assertThat(store.take(one, key + "-other", 1, false, T0 + 3).allowed()).isTrue();
	}

	@Test
	void retryAfterWhenWaitIsUnderASecondShouldRoundUpToOneSecond() {
		Budget budget = Budget.builder("second").window("second", 1, Duration.ofSeconds(1)).build();
		take(budget, T0 + 100);

		Decision refused = take(budget, T0 + 999);

		assertThat(refused.retryAfterMillis()).isEqualTo(1);
		assertThat(refused.retryAfterSeconds()).isEqualTo(1);
	}

	@Test
	void takeWhenTheClockGoesBackShouldKeepCountingInTheNewestWindow() {
		Budget budget = Budget.builder("skew").window("minute", 2, Duration.ofMinutes(1)).build();
		store.take(budget, key, 1, false, T0 + 60_000);
		store.take(budget, key, 1, false, T0 + 60_001);

		Decision late = store.take(budget, key, 1, false, T0 + 59_000);

		assertThat(late.allowed()).isFalse();
		assertThat(late.bindingWindow().resetAtMillis()).isEqualTo(T0 + 120_000);
	}

	@Test
	void aClockThatGoesBackWhenAdmittedShouldCountInTheNewestWindow() {
		Budget budget = Budget.builder("skew-admitted").window("minute", 3, Duration.ofMinutes(1)).build();
		take(budget, T0 + 60_500);

		Decision late = take(budget, T0 + 59_999);

		assertThat(late.allowed()).isTrue();
		assertThat(late.bindingWindow().remaining()).isEqualTo(1);
		assertThat(late.bindingWindow().resetAtMillis()).isEqualTo(T0 + 120_000);
		assertThat(late.retryAfterMillis()).isZero();
		assertThat(store.peek(budget, key, T0 + 59_999).bounds().get(0).resetAtMillis()).isEqualTo(T0 + 120_000);
	}

	@Test
	void aRefusalWhenAWindowEndedShouldStillMoveTheKeyToTheNewestWindow() {
		Budget budget = Budget.builder("rolled")
			.window("minute", 1, Duration.ofMinutes(1))
			.window("hour", 1, Duration.ofHours(1))
			.build();
		take(budget, T0);
		Decision refused = take(budget, T0 + 60_000);

		Decision late = take(budget, T0 + 59_000);

		assertThat(refused.refusingBound()).map(BoundVerdict::name).contains("hour");
		assertThat(late.allowed()).isFalse();
		assertThat(late.verdicts().get(0)).satisfies(minute -> {
			assertThat(minute.resetAtMillis()).isEqualTo(T0 + 120_000);
			assertThat(minute.remaining()).isEqualTo(1);
			assertThat(minute.refused()).isFalse();
		});
		assertThat(late.refusingBound()).map(BoundVerdict::name).contains("hour");
	}

	@Test
	void peekWhenTheClockGoesBackShouldShowTheNewestWindowWithoutMovingIt() {
		Budget budget = Budget.builder("peek-skew").window("second", 2, Duration.ofSeconds(1)).build();
		take(budget, T0 + 1_000);

		KeyState late = store.peek(budget, key, T0 + 999);
		KeyState later = store.peek(budget, key, T0 + 2_500);
		Decision back = take(budget, T0 + 1_999);

		assertThat(late.bounds().get(0)).satisfies(second -> {
			assertThat(second.resetAtMillis()).isEqualTo(T0 + 2_000);
			assertThat(second.remaining()).isEqualTo(1);
		});
		assertThat(later.bounds().get(0).resetAtMillis()).isEqualTo(T0 + 3_000);
		assertThat(later.bounds().get(0).remaining()).isEqualTo(2);
		assertThat(back.bindingWindow().resetAtMillis()).as("a peek moves no window").isEqualTo(T0 + 2_000);
		assertThat(back.bindingWindow().remaining()).isZero();
	}

	@Test
	void aWindowWhenAtItsResetMinusOneAtAndPlusOneMillisecondShouldCountInTheRightWindow() {
		Budget budget = Budget.builder("margin").window("second", 1, Duration.ofSeconds(1)).build();
		long reset = T0 + 1_000;
		Decision first = take(budget, reset - 1);

		Decision justBefore = take(budget, reset - 1);
		Decision atReset = take(budget, reset);
		Decision justAfter = take(budget, reset + 1);
		Decision backAgain = take(budget, reset - 1);

		assertThat(first.allowed()).isTrue();
		assertThat(first.bindingWindow().resetAtMillis()).isEqualTo(reset);
		assertThat(justBefore.allowed()).isFalse();
		assertThat(justBefore.retryAfterMillis()).isEqualTo(1);
		assertThat(atReset.allowed()).isTrue();
		assertThat(atReset.bindingWindow().resetAtMillis()).isEqualTo(reset + 1_000);
		assertThat(justAfter.allowed()).isFalse();
		assertThat(justAfter.retryAfterMillis()).isEqualTo(999);
		assertThat(backAgain.allowed()).isFalse();
		assertThat(backAgain.bindingWindow().resetAtMillis()).isEqualTo(reset + 1_000);
		assertThat(backAgain.retryAfterMillis()).isEqualTo(1_001);
	}

	@Test
	void aLeaseWhenAtItsExpiryMinusOneAtAndPlusOneMillisecondShouldHoldThenFreeItsSlot() {
		Budget budget = Budget.builder("lease-margin")
			.window("minute", 100, Duration.ofMinutes(1))
			.concurrency(1, Duration.ofSeconds(30))
			.build();
		long expiry = store.take(budget, key, 1, true, T0).lease().orElseThrow().expiresAtMillis();

		KeyState justBefore = store.peek(budget, key, expiry - 1);
		KeyState atExpiry = store.peek(budget, key, expiry);
		Decision refusedJustBefore = store.take(budget, key, 1, true, expiry - 1);
		Decision justAfter = store.take(budget, key, 1, true, expiry + 1);
		Decision backAgain = store.take(budget, key, 1, true, expiry);

		assertThat(justBefore.bounds().get(1)).satisfies(c -> {
			assertThat(c.remaining()).isZero();
			assertThat(c.refused()).isTrue();
			assertThat(c.resetAtMillis()).isEqualTo(expiry);
		});
		assertThat(atExpiry.bounds().get(1)).satisfies(c -> {
			assertThat(c.remaining()).isEqualTo(1);
			assertThat(c.refused()).isFalse();
			assertThat(c.resetAtMillis()).isEqualTo(expiry);
		});
		assertThat(refusedJustBefore.allowed()).isFalse();
		assertThat(refusedJustBefore.retryAfterMillis()).isEqualTo(1);
		assertThat(justAfter.allowed()).isTrue();
		assertThat(justAfter.lease().orElseThrow().expiresAtMillis()).isEqualTo(expiry + 1 + 30_000);
		assertThat(backAgain.allowed()).as("the clock went back, the new lease is still held").isFalse();
		assertThat(backAgain.retryAfterMillis()).isEqualTo(30_001);
	}

	@Test
	void leaseWhenExpiredAndTheClockGoesBackShouldStayFree() {
		Budget budget = Budget.builder("lease-skew")
			.window("minute", 100, Duration.ofMinutes(1))
			.concurrency(1, Duration.ofSeconds(30))
			.build();
		store.take(budget, key, 1, true, T0);
		Lease second = store.take(budget, key, 1, true, T0 + 30_000).lease().orElseThrow();
		store.release(second, T0 + 30_001);

		Decision late = store.take(budget, key, 1, true, T0 + 29_999);

		assertThat(late.allowed()).isTrue();
	}

}
