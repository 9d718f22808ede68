package dev.limiter.resilience;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Budget;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.StoreNotCalledException;
import dev.limiter.core.contract.DownRateLimitStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class CircuitBreakingRateLimitStoreTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget BUDGET = Budget.builder("b").window("minute", 10, Duration.ofMinutes(1)).build();

	private static final SliceTerms TERMS = new SliceTerms(5, Duration.ofSeconds(1));

	private final IllegalStateException storeError = new IllegalStateException("connection refused");

	private final CircuitBreaker breaker = CircuitBreaker.of("limiter",
			CircuitBreakerConfig.custom()
				.slidingWindowSize(2)
				.minimumNumberOfCalls(2)
				.failureRateThreshold(50)
				.waitDurationInOpenState(Duration.ofMinutes(1))
				.build());

	private final CircuitBreakingRateLimitStore store = new CircuitBreakingRateLimitStore(
			new DownRateLimitStore("failing", storeError), breaker);

	@Test
	void takeWhenTheStoreFailsShouldWrapItsErrorAsAStoreFailure() {
		assertThatExceptionOfType(RateLimitStoreException.class).isThrownBy(() -> store.take(BUDGET, "k", 1, false, T0))
			.withCause(storeError);
	}

	@Test
	void takeWhenTheBreakerIsOpenShouldNameTheStoresLastError() {
		for (int i = 0; i < 2; i++) {
			assertThatExceptionOfType(RateLimitStoreException.class)
				.isThrownBy(() -> store.take(BUDGET, "k", 1, false, T0));
		}

		assertThatExceptionOfType(StoreNotCalledException.class).isThrownBy(() -> store.take(BUDGET, "k", 1, false, T0))
			.withMessage("circuit breaker 'limiter' is open; store not called")
			.withCause(storeError);
		assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(1);
	}

	@Test
	void settledWhenTheBreakerOpenedShouldBeFalse() {
		breaker.transitionToOpenState();

		assertThat(store.settled()).isFalse();
	}

	@Test
	void takeAsyncWhenTheStoreFailsShouldFailTheStageAndCountTheFailure() {
		CompletableFuture<?> stage = store.takeAsync(BUDGET, "k", 1, false, T0).toCompletableFuture();

		assertThat(stage).isCompletedExceptionally();
		assertThat(failureOf(stage)).isInstanceOf(RateLimitStoreException.class).hasCause(storeError);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
	}

	@Test
	void takeAsyncWhenTheBreakerIsOpenShouldFailAtOnceNamingTheStoresLastError() {
		for (int i = 0; i < 2; i++) {
			store.takeAsync(BUDGET, "k", 1, false, T0);
		}

		CompletableFuture<?> refused = store.takeAsync(BUDGET, "k", 1, false, T0).toCompletableFuture();

		assertThat(refused).as("failed before returning").isCompletedExceptionally();
		assertThat(failureOf(refused)).isInstanceOf(StoreNotCalledException.class)
			.hasMessage("circuit breaker 'limiter' is open; store not called")
			.hasCause(storeError);
		assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(1);
	}

	@Test
	void reserveAsyncWhenTheBreakerIsOpenShouldFailAtOnce() {
		breaker.transitionToOpenState();

		CompletableFuture<?> refused = store.reserveAsync(BUDGET, "k", new long[] { 1 }, false, T0)
			.toCompletableFuture();

		assertThat(failureOf(refused)).isInstanceOf(StoreNotCalledException.class);
	}

	@Test
	void takeSliceWhenTheBreakerIsOpenShouldNotCallTheStore() {
		SliceCountingStore counting = new SliceCountingStore();
		CircuitBreakingRateLimitStore guarded = new CircuitBreakingRateLimitStore(counting, breaker);
		breaker.transitionToOpenState();

		assertThatExceptionOfType(StoreNotCalledException.class)
			.isThrownBy(() -> guarded.takeSlice(BUDGET, "k", 1, TERMS, T0));
		CompletableFuture<?> refused = guarded.takeSliceAsync(BUDGET, "k", 1, TERMS, T0).toCompletableFuture();

		assertThat(refused).as("failed before returning").isCompletedExceptionally();
		assertThat(failureOf(refused)).isInstanceOf(StoreNotCalledException.class);
		assertThat(counting.slices).as("no slice call sent").hasValue(0);
		assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(2);
	}

	@Test
	void takeSliceWhenTheStoreFailsShouldCountTheFailureUntilTheBreakerOpens() {
		for (int i = 0; i < 2; i++) {
			assertThatExceptionOfType(RateLimitStoreException.class)
				.isThrownBy(() -> store.takeSlice(BUDGET, "k", 1, TERMS, T0))
				.withCause(storeError);
		}

		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(2);
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
	}

	/** What the stage failed with, as it was raised. */
	private static Throwable failureOf(CompletableFuture<?> stage) {
		return stage.handle((answer, failure) -> failure).join();
	}

	/** An in-memory store counting the slice calls it is sent. */
	private static final class SliceCountingStore extends ForwardingRateLimitStore {

		private final RateLimitStore memory = RateLimitStores.inMemory(100);

		final AtomicInteger slices = new AtomicInteger();

		@Override
		protected RateLimitStore delegate() {
			return memory;
		}

		@Override
		public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
			slices.incrementAndGet();
			return memory.takeSlice(budget, key, cost, terms, nowMillis);
		}

		@Override
		public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
				long nowMillis) {
			slices.incrementAndGet();
			return memory.takeSliceAsync(budget, key, cost, terms, nowMillis);
		}

	}

}
