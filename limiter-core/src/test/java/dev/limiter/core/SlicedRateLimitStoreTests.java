package dev.limiter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.contract.RateLimitStoreContractTests;
import dev.limiter.core.contract.SlicingModelStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decorator of ADR 0014 over the Java slice rule: every store contract holds with it
 * in front (no budget of the contract has slices), and a budget with slices is decided
 * locally from a slice, refused by the store, and gives back what it did not spend.
 */
class SlicedRateLimitStoreTests extends RateLimitStoreContractTests {

	private static final SliceTerms TERMS = new SliceTerms(10, Duration.ofSeconds(1));

	private static final Budget SLICED = Budget.builder("sliced")
		.window("minute", 100, Duration.ofMinutes(1))
		.slices(TERMS)
		.build();

	private final RateLimitStore memory = RateLimitStores.inMemory(10_000);

	private final AtomicInteger slices = new AtomicInteger();

	private final SlicedRateLimitStore sliced = new SlicedRateLimitStore(
			counting(new SlicingModelStore(memory).instance("one")));

	@Override
	protected RateLimitStore createStore() {
		return new SlicedRateLimitStore(RateLimitStores.inMemory(100_000));
	}

	@Test
	void takeWhenSlicesOfTwoInstancesReachNotifyAtThresholdsShouldReportEachOnceAcrossBoth() {
		Budget notifying = Budget.builder("sliced-notifying")
			.window(Window.of("minute", 100, Duration.ofMinutes(1)).withNotifyAt(NotifyAt.of(List.of(25, 50, 90))))
			.slices(TERMS)
			.build();
		SlicingModelStore model = new SlicingModelStore(RateLimitStores.inMemory(100));
		List<SlicedRateLimitStore> instances = List.of(new SlicedRateLimitStore(model.instance("a")),
				new SlicedRateLimitStore(model.instance("b")));
		long start = Window.of("minute", 100, Duration.ofMinutes(1)).resetAt(T0) - 60_000L;

		List<Integer> reported = new ArrayList<>();
		int admitted = 0;
		for (int i = 0; i < 150; i++) {
			Decision decision = instances.get(i % 2).take(notifying, key, 1, false, start + i);
			admitted += decision.allowed() ? 1 : 0;
			decision.crossings().forEach((crossing) -> reported.add(crossing.percent()));
		}

		assertThat(admitted).isEqualTo(100);
		assertThat(reported).containsExactly(25, 50, 90);
	}

	@Test
	void takeWhenTheBudgetHasSlicesShouldAdmitFromTheSliceWithoutAskingTheStore() {
		for (int i = 0; i < 10; i++) {
			assertThat(sliced.take(SLICED, key, 1, false, T0 + i).allowed()).isTrue();
		}

		assertThat(slices).hasValue(1);
		assertThat(memory.peek(SLICED, key, T0 + 10).bounds().get(0).remaining()).isEqualTo(90);
	}

	@Test
	void takeWhenLocalShouldReportWhatTheStoreLeftPlusWhatThisInstanceStillHolds() {
		Decision first = sliced.take(SLICED, key, 1, false, T0);
		Decision second = sliced.take(SLICED, key, 2, false, T0 + 1);

		assertThat(first.verdicts().get(0).remaining()).isEqualTo(99);
		assertThat(second.verdicts().get(0).remaining()).isEqualTo(97);
		assertThat(second.verdicts().get(0).resetAtMillis()).isEqualTo(first.verdicts().get(0).resetAtMillis());
	}

	@Test
	void takeWhenTheStoreHasNothingLeftShouldAnswerItsRefusalAndItsExactRetry() {
		RateLimitStore plain = RateLimitStores.inMemory(100);
		for (int i = 0; i < 100; i++) {
			sliced.take(SLICED, key, 1, false, T0);
			plain.take(SLICED, key, 1, false, T0);
		}

		Decision refused = sliced.take(SLICED, key, 1, false, T0 + 5);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused).isEqualTo(plain.take(SLICED, key, 1, false, T0 + 5));
	}

	@Test
	void takeWhenTheSliceWentUnusedForItsTtlShouldGiveBackWhatItDidNotSpend() {
		sliced.take(SLICED, key, 1, false, T0);
		sliced.take(SLICED, key, 1, false, T0 + 1);

		sliced.giveBackExpired(T0 + 1_000);
		assertThat(sliced.heldUnits(SLICED, key)).as("used a ttl ago less a millisecond").isEqualTo(8);
		sliced.giveBackExpired(T0 + 1_001);

		assertThat(sliced.heldUnits(SLICED, key)).isZero();
		assertThat(memory.peek(SLICED, key, T0 + 1_001).bounds().get(0).remaining()).isEqualTo(98);
	}

	@Test
	void takeWhenTheKeyKeepsComingBackWithinTheTtlShouldKeepItsSlicePastTheTtl() {
		for (int i = 0; i < 9; i++) {
			assertThat(sliced.take(SLICED, key, 1, false, T0 + i * 900L).allowed()).isTrue();
			sliced.giveBackExpired(T0 + i * 900L + 899);
		}

		assertThat(slices).as("one slice, spent over 7.2 s").hasValue(1);
		assertThat(sliced.heldUnits(SLICED, key)).isEqualTo(1);
	}

	@Test
	void takeWhenATokenBucketsSliceIsInUseShouldStillEndItATtlAfterItWasTaken() {
		Budget bucket = Budget.builder("sliced-bucket")
			.window(Window.tokenBucket("minute", 100, Duration.ofMinutes(1)))
			.slices(TERMS)
			.build();
		sliced.take(bucket, key, 1, false, T0);
		sliced.take(bucket, key, 1, false, T0 + 900);

		sliced.take(bucket, key, 1, false, T0 + 1_000);

		// a token is spent at most a ttl after it was taken: what bounds a bucket's
		// admissions
		assertThat(slices).hasValue(2);
	}

	@Test
	void takeWhenAnotherKeyTakesASliceAfterAnIdleKeysSliceExpiredShouldGiveTheIdleOneBack() {
		sliced.take(SLICED, key, 1, false, T0);

		sliced.take(SLICED, key + "-other", 1, false, T0 + 2_000);

		assertThat(sliced.heldUnits(SLICED, key)).isZero();
		assertThat(memory.peek(SLICED, key, T0 + 2_000).bounds().get(0).remaining()).isEqualTo(99);
	}

	@Test
	void takeWhenAFixedWindowEndsShouldNotSpendItsSliceInTheNextWindow() {
		long beforeEnd = T0 + 59_999;
		sliced.take(SLICED, key, 1, false, beforeEnd);

		Decision next = sliced.take(SLICED, key, 1, false, T0 + 60_000);

		assertThat(slices).hasValue(2);
		assertThat(next.verdicts().get(0).resetAtMillis()).isEqualTo(T0 + 120_000);
		assertThat(memory.peek(SLICED, key, T0 + 60_000).bounds().get(0).remaining()).isEqualTo(90);
	}

	@Test
	void takeWhenTheBudgetHasNoSlicesShouldAskTheStoreEveryTime() {
		Budget plain = Budget.builder("plain").window("minute", 100, Duration.ofMinutes(1)).build();
		for (int i = 0; i < 3; i++) {
			sliced.take(plain, key, 1, false, T0);
		}

		assertThat(slices).hasValue(0);
		assertThat(memory.peek(plain, key, T0).bounds().get(0).remaining()).isEqualTo(97);
	}

	@Test
	void takeWhenTheRequestNeedsALeaseShouldGoToTheStoreAndKeepTheSlice() {
		Budget leased = Budget.builder("leased")
			.window("minute", 100, Duration.ofMinutes(1))
			.concurrency(2, Duration.ofSeconds(30))
			.slices(TERMS)
			.build();
		sliced.take(leased, key, 1, false, T0);

		Decision expensive = sliced.take(leased, key, 1, true, T0 + 1);

		assertThat(expensive.lease()).isPresent();
		assertThat(sliced.heldUnits(leased, key)).isEqualTo(9);
		assertThat(slices).hasValue(1);
	}

	@Test
	void takeAsyncWhenTheSliceCoversTheRequestShouldCompleteAtOnce() {
		sliced.take(SLICED, key, 1, false, T0);

		Decision local = sliced.takeAsync(SLICED, key, 1, false, T0 + 1).toCompletableFuture().getNow(null);

		assertThat(local).isNotNull();
		assertThat(local.allowed()).isTrue();
		assertThat(slices).hasValue(1);
	}

	private RateLimitStore counting(RateLimitStore store) {
		return new ForwardingRateLimitStore() {

			@Override
			protected RateLimitStore delegate() {
				return store;
			}

			@Override
			public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
				slices.incrementAndGet();
				return store.takeSlice(budget, key, cost, terms, nowMillis);
			}

		};
	}

}
