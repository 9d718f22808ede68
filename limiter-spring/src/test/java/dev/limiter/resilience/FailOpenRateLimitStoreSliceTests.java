package dev.limiter.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Budget;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.StoreMode;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.core.contract.SlicingModelStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link FailOpenRateLimitStore}'s slices (ADR 0014) follow the policy of its decisions:
 * the authoritative store's slice while it answers, and while it cannot, the fallback's
 * degraded decision for the request alone (nothing held beyond it), a fail-closed
 * budget's {@link StoreUnavailableException}, one outage announced.
 */
class FailOpenRateLimitStoreSliceTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final SliceTerms TERMS = new SliceTerms(10, Duration.ofSeconds(5));

	private static final Budget SLICED = Budget.builder("sliced")
		.window("minute", 1_000, Duration.ofMinutes(1))
		.slices(TERMS)
		.build();

	private static final Budget CLOSED = Budget.builder("closed")
		.window("minute", 1_000, Duration.ofMinutes(1))
		.slices(TERMS)
		.build();

	private final SwitchableSlicer backend = new SwitchableSlicer(
			new SlicingModelStore(RateLimitStores.inMemory(1_000)).instance("a"));

	private final List<String> events = Collections.synchronizedList(new ArrayList<>());

	private final FailOpenRateLimitStore store = new FailOpenRateLimitStore(backend, 1_000,
			b -> b.name().equals("closed"), 5_000, new StoreModeListener() {
				@Override
				public void degraded(String name, Throwable cause) {
					events.add("degraded");
				}

				@Override
				public void recovered(String name) {
					events.add("recovered");
				}
			});

	@Test
	void takeSliceWhenTheStoreAnswersShouldBeTheStoresWholeSlice() {
		Slice slice = store.takeSlice(SLICED, "k", 1, TERMS, T0);

		assertThat(slice.units()).as("a slice of slices.max, counted by the store").isEqualTo(10);
		assertThat(slice.decision().degraded()).isFalse();
		assertThat(backend.slices).isEqualTo(1);
	}

	@Test
	void takeSliceWhenTheStoreFailsShouldAdmitTheRequestAloneDegradedAndStartOneOutage() {
		backend.down = true;

		Slice first = store.takeSlice(SLICED, "k", 2, TERMS, T0);
		Slice second = store.takeSlice(SLICED, "k", 2, TERMS, T0 + 1);

		assertThat(first.decision().allowed()).isTrue();
		assertThat(first.decision().degraded()).isTrue();
		assertThat(first.units()).as("nothing held beyond the request on a guess").isEqualTo(2);
		assertThat(second.decision().verdicts().get(0).remaining()).as("counted by the fallback").isEqualTo(996);
		assertThat(store.mode()).isEqualTo(StoreMode.DEGRADED);
		assertThat(events).containsExactly("degraded");
	}

	@Test
	void takeSliceWhenTheStoreAnswersAgainShouldEndTheOutage() {
		backend.down = true;
		store.takeSlice(SLICED, "k", 1, TERMS, T0);
		backend.down = false;

		Slice slice = store.takeSlice(SLICED, "k", 1, TERMS, T0 + 1);

		assertThat(slice.decision().degraded()).isFalse();
		assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
		assertThat(events).containsExactly("degraded", "recovered");
	}

	@Test
	void takeSliceAsyncWhenTheStoresStageFailsShouldAnswerDegradedFromTheFallback() {
		backend.down = true;

		Slice slice = store.takeSliceAsync(SLICED, "k", 1, TERMS, T0).toCompletableFuture().join();

		assertThat(slice.decision().allowed()).isTrue();
		assertThat(slice.decision().degraded()).isTrue();
		assertThat(slice.units()).isEqualTo(1);
		assertThat(backend.asyncSlices).as("asked through the store's own asynchronous call").isEqualTo(1);
	}

	@Test
	void takeSliceWhenAFailClosedBudgetsStoreFailsShouldRefuseAsUnavailable() {
		backend.down = true;

		assertThatExceptionOfType(StoreUnavailableException.class)
			.isThrownBy(() -> store.takeSlice(CLOSED, "k", 1, TERMS, T0));
	}

	/**
	 * A slicing store whose slice calls fail while {@code down} (its asynchronous one
	 * with a failed stage), counting them.
	 */
	private static final class SwitchableSlicer extends ForwardingRateLimitStore {

		private final RateLimitStore slicing;

		volatile boolean down;

		int slices;

		int asyncSlices;

		SwitchableSlicer(RateLimitStore slicing) {
			this.slicing = slicing;
		}

		@Override
		protected RateLimitStore delegate() {
			return slicing;
		}

		@Override
		public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
			slices++;
			if (down) {
				throw new IllegalStateException("connection refused");
			}
			return slicing.takeSlice(budget, key, cost, terms, nowMillis);
		}

		@Override
		public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
				long nowMillis) {
			asyncSlices++;
			if (down) {
				return CompletableFuture.failedFuture(new IllegalStateException("connection refused"));
			}
			return CompletableFuture.completedFuture(slicing.takeSlice(budget, key, cost, terms, nowMillis));
		}

		@Override
		public String name() {
			return "switchable";
		}

	}

}
