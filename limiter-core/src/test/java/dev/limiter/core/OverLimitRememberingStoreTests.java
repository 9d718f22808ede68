package dev.limiter.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.contract.RateLimitStoreContractTests;
import dev.limiter.core.contract.SlicingModelStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The decorator passes the store contract unchanged, and spares the store the refusals it
 * can answer itself.
 */
class OverLimitRememberingStoreTests extends RateLimitStoreContractTests {

	private static final Budget FIVE = Budget.builder("five")
		.window("minute", 5, Duration.ofMinutes(1))
		.window("hour", 100, Duration.ofHours(1))
		.concurrency(2, Duration.ofSeconds(30))
		.build();

	private static final SliceTerms SLICES = new SliceTerms(10, Duration.ofSeconds(5));

	private static final Budget SLICED_FIVE = Budget.builder("sliced-five")
		.window("minute", 5, Duration.ofMinutes(1))
		.slices(SLICES)
		.build();

	private final CountingStore counting = new CountingStore(RateLimitStores.inMemory(10_000));

	@Override
	protected RateLimitStore createStore() {
		return new OverLimitRememberingStore(RateLimitStores.inMemory(100_000));
	}

	@Test
	void takeWhenAWindowIsExhaustedShouldRefuseWithoutAskingTheStoreUntilItResets() {
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(counting);
		for (int i = 0; i < 5; i++) {
			remembering.take(FIVE, key, 1, false, T0 + i);
		}

		Decision local = remembering.take(FIVE, key, 2, false, T0 + 1_000);
		int asked = counting.takes.get();
		Decision storeAnswer = counting.delegate.take(FIVE, key, 2, false, T0 + 1_000);
		Decision nextMinute = remembering.take(FIVE, key, 1, false, T0 + 60_000);

		assertThat(asked).isEqualTo(5);
		assertThat(local.allowed()).isFalse();
		assertThat(local).isEqualTo(storeAnswer);
		assertThat(local.refusingBound()).map(BoundVerdict::name).contains("minute");
		assertThat(local.retryAfterMillis()).isEqualTo(59_000);
		assertThat(local.verdicts()).extracting(BoundVerdict::remaining).containsExactly(0L, 95L);
		assertThat(remembering.size()).isZero();
		assertThat(nextMinute.allowed()).isTrue();
		assertThat(counting.takes.get()).isEqualTo(6);
	}

	@Test
	void takeWhenTheAdmissionLeavesAWindowAtZeroShouldRefuseTheNextWithoutAskingTheStore() {
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(counting);
		for (int i = 0; i < 5; i++) {
			assertThat(remembering.take(FIVE, key, 1, false, T0 + i).allowed()).isTrue();
		}

		Decision next = remembering.take(FIVE, key, 1, false, T0 + 10);

		assertThat(counting.takes.get()).as("the fifth admission left the minute at 0").isEqualTo(5);
		assertThat(next.allowed()).isFalse();
		assertThat(next).isEqualTo(counting.delegate.take(FIVE, key, 1, false, T0 + 10));
	}

	@Test
	void takeSliceWhenASliceLeftAWindowAtZeroShouldAnswerTheNextWithASliceOfNothingWithoutAskingTheStore() {
		CountingStore slicing = new CountingStore(new SlicingModelStore(RateLimitStores.inMemory(100)).instance("a"));
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(slicing);
		long counted = 0;
		for (int i = 0; counted < 5; i++) {
			Slice slice = remembering.takeSlice(SLICED_FIVE, key, 1, SLICES, T0 + i);
			assertThat(slice.decision().allowed()).isTrue();
			counted += slice.units();
		}
		int asked = slicing.slices.get();

		Slice waited = remembering.takeSlice(SLICED_FIVE, key, 1, SLICES, T0 + 1_000);
		Slice answeredLater = remembering.takeSliceAsync(SLICED_FIVE, key, 1, SLICES, T0 + 1_000)
			.toCompletableFuture()
			.getNow(null);

		assertThat(slicing.slices).as("no slice call once the window is known spent").hasValue(asked);
		assertThat(List.of(waited, answeredLater)).allSatisfy((slice) -> {
			assertThat(slice.units()).isZero();
			assertThat(slice.decision())
				.isEqualTo(slicing.delegate.takeSlice(SLICED_FIVE, key, 1, SLICES, T0 + 1_000).decision());
		});
	}

	@Test
	void takeSliceAsyncWhenTheStoreRefusesShouldRememberTheRefusal() {
		CountingStore slicing = new CountingStore(new SlicingModelStore(RateLimitStores.inMemory(100)).instance("a"));
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(slicing);
		slicing.delegate.take(SLICED_FIVE, key, 5, false, T0);

		Slice refused = remembering.takeSliceAsync(SLICED_FIVE, key, 1, SLICES, T0 + 1).toCompletableFuture().join();
		Slice remembered = remembering.takeSliceAsync(SLICED_FIVE, key, 1, SLICES, T0 + 2).toCompletableFuture().join();

		assertThat(refused.decision().allowed()).isFalse();
		assertThat(remembered.decision().allowed()).isFalse();
		assertThat(remembered.decision().retryAfterMillis()).isEqualTo(refused.decision().retryAfterMillis() - 1);
		assertThat(slicing.slices).hasValue(1);
		assertThat(remembering.size()).isEqualTo(1);
	}

	@Test
	void takeWhenAnAnswerWithRoomArrivesAfterTheOneThatExhaustedTheWindowShouldStillRefuseLocally() {
		// Two concurrent requests: the store admits the first with one unit left, then
		// the
		// second with none; the second's answer reaches the instance first.
		ReorderingStore reordering = new ReorderingStore(counting);
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(reordering);
		for (int i = 0; i < 3; i++) {
			remembering.take(FIVE, key, 1, false, T0 + i);
		}
		Decision earlier = counting.take(FIVE, key, 1, false, T0 + 3);
		assertThat(remembering.take(FIVE, key, 1, false, T0 + 4).allowed()).as("the last unit").isTrue();
		reordering.next = earlier;
		assertThat(remembering.take(FIVE, key, 1, false, T0 + 3).verdicts().get(0).remaining())
			.as("the late answer, with room")
			.isEqualTo(1);
		int asked = counting.takes.get();

		Decision refused = remembering.take(FIVE, key, 1, false, T0 + 20);

		assertThat(refused.allowed()).isFalse();
		assertThat(counting.takes.get()).as("refused from memory").isEqualTo(asked);
		assertThat(refused).isEqualTo(counting.delegate.take(FIVE, key, 1, false, T0 + 20));
	}

	@Test
	void takeWhenTheBudgetCountsRefusalsShouldAskTheStoreEveryTime() {
		Budget counted = Budget.builder("counted")
			.window("minute", 1, Duration.ofMinutes(1))
			.countRefused(true)
			.build();
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(counting);
		for (int i = 0; i < 4; i++) {
			remembering.take(counted, key, 1, false, T0 + i);
		}

		assertThat(counting.takes.get()).isEqualTo(4);
		assertThat(remembering.size()).isZero();
	}

	@Test
	void takeWhenTheRequestNeedsALeaseShouldAskTheStore() {
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(counting);
		for (int i = 0; i < 5; i++) {
			remembering.take(FIVE, key, 1, false, T0 + i);
		}

		Decision expensive = remembering.take(FIVE, key, 1, true, T0 + 10);

		assertThat(expensive.allowed()).isFalse();
		assertThat(expensive.verdicts()).hasSize(3);
		assertThat(counting.takes.get()).isEqualTo(6);
	}

	@Test
	void takeWhenAnAnswerWithRoomCameFromALaterWindowShouldNotBringTheOldRefusalBackForAClockThatWentBack() {
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(counting);
		for (int i = 0; i < 5; i++) {
			remembering.take(FIVE, key, 1, false, T0 + 1_000 + i);
		}
		// The next minute, through the store (a lease is asked of the store), with room.
		assertThat(remembering.take(FIVE, key, 1, true, T0 + 61_000).allowed()).isTrue();
		int askedBefore = counting.takes.get();

		// A clock that went back into the exhausted minute: the store counts in the later
		// minute, which has room, and so must the memory answer.
		Decision back = remembering.take(FIVE, key, 1, false, T0 + 59_000);

		assertThat(counting.takes.get()).as("the store was asked").isEqualTo(askedBefore + 1);
		assertThat(back.allowed()).isTrue();
		assertThat(
				back.verdicts().stream().filter(v -> v.name().equals("minute")).findFirst().orElseThrow().remaining())
			.as("counted in the later minute: the leased request and this one")
			.isEqualTo(3);
	}

	@Test
	void takeWhenTheClockWentBackBehindTheRefusalShouldAskTheStore() {
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(counting);
		for (int i = 0; i < 6; i++) {
			remembering.take(FIVE, key, 1, false, T0 + 1_000 + i);
		}
		int askedBefore = counting.takes.get();

		Decision late = remembering.take(FIVE, key, 1, false, T0 + 500);

		assertThat(askedBefore).as("the sixth was refused from memory").isEqualTo(5);
		assertThat(counting.takes.get()).isEqualTo(6);
		assertThat(late.allowed()).isFalse();
	}

	@Test
	void resetWhenKeyIsRememberedShouldForgetIt() {
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(counting);
		for (int i = 0; i < 5; i++) {
			remembering.take(FIVE, key, 1, false, T0 + i);
		}

		remembering.reset(FIVE, key);

		assertThat(remembering.size()).isZero();
		assertThat(remembering.take(FIVE, key, 1, false, T0 + 10).allowed()).isTrue();
	}

	@Test
	void takeWhenNothingMayBeRememberedShouldAskTheStoreEveryTime() {
		OverLimitRememberingStore remembering = new OverLimitRememberingStore(counting, 0);
		for (int i = 0; i < 8; i++) {
			remembering.take(FIVE, key, 1, false, T0 + i);
		}

		assertThat(counting.takes.get()).isEqualTo(8);
		assertThat(remembering.size()).isZero();
	}

	@Test
	void maxEntriesWhenNegativeShouldBeRejected() {
		assertThatThrownBy(() -> new OverLimitRememberingStore(counting, -1)).hasMessageContaining("negative");
	}

	/**
	 * Hands back an answer computed earlier once, as if it had travelled longer than the
	 * next one.
	 */
	private static final class ReorderingStore extends ForwardingRateLimitStore {

		final RateLimitStore delegate;

		Decision next;

		ReorderingStore(RateLimitStore delegate) {
			this.delegate = delegate;
		}

		@Override
		protected RateLimitStore delegate() {
			return delegate;
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			Decision late = next;
			if (late != null) {
				next = null;
				return late;
			}
			return delegate.take(budget, key, cost, expensive, nowMillis);
		}

	}

	/** Counts the decisions and the slices (waited for or not) that reach the store. */
	private static final class CountingStore extends ForwardingRateLimitStore {

		final RateLimitStore delegate;

		final AtomicInteger takes = new AtomicInteger();

		final AtomicInteger slices = new AtomicInteger();

		CountingStore(RateLimitStore delegate) {
			this.delegate = delegate;
		}

		@Override
		protected RateLimitStore delegate() {
			return delegate;
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			takes.incrementAndGet();
			return delegate.take(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
			slices.incrementAndGet();
			return delegate.takeSlice(budget, key, cost, terms, nowMillis);
		}

		@Override
		public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
				long nowMillis) {
			slices.incrementAndGet();
			return delegate.takeSliceAsync(budget, key, cost, terms, nowMillis);
		}

	}

}
