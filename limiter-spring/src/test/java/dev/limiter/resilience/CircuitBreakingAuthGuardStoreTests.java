package dev.limiter.resilience;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import dev.limiter.core.Budget;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.StoreNotCalledException;
import dev.limiter.core.contract.DownAuthGuardStore;
import dev.limiter.core.contract.DownRateLimitStore;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.PendingReservation;
import dev.limiter.resilience.CircuitBreakingRateLimitStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The guard's store behind the limiter's breaker: the same decoration as the limiter's
 * store, so failures of either open it for both, and a refusal names the last real
 * failure.
 */
class CircuitBreakingAuthGuardStoreTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget BUDGET = Budget.builder("b").window("minute", 10, Duration.ofMinutes(1)).build();

	private final IllegalStateException storeError = new IllegalStateException("connection refused");

	private final CircuitBreaker breaker = CircuitBreaker.of("limiter",
			CircuitBreakerConfig.custom()
				.slidingWindowSize(2)
				.minimumNumberOfCalls(2)
				.failureRateThreshold(50)
				.waitDurationInOpenState(Duration.ofMinutes(1))
				.build());

	private final CircuitBreakingRateLimitStore limiterStore = new CircuitBreakingRateLimitStore(
			new DownRateLimitStore("failing", storeError), breaker);

	private final CircuitBreakingAuthGuardStore guardStore = new CircuitBreakingAuthGuardStore(
			new DownAuthGuardStore(storeError), limiterStore.breaker());

	@Test
	void reserveWhenTheGuardStoreFailsShouldWrapItsErrorAsAStoreFailure() {
		assertThatExceptionOfType(RateLimitStoreException.class).isThrownBy(() -> guardStore.reserve("addr:1", T0))
			.withCause(storeError);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
	}

	@Test
	void reserveWhenTheLimitersStoreOpenedTheBreakerShouldNotCallTheGuardStore() {
		for (int i = 0; i < 2; i++) {
			assertThatExceptionOfType(RateLimitStoreException.class)
				.isThrownBy(() -> limiterStore.take(BUDGET, "k", 1, false, T0));
		}

		assertThatExceptionOfType(StoreNotCalledException.class).isThrownBy(() -> guardStore.reserve("addr:1", T0))
			.withMessage("circuit breaker 'limiter' is open; store not called")
			.withCause(storeError);
	}

	@Test
	void reservationWhenSentAndItsAnswerFailsShouldBeRecordedWhenRead() {
		PendingReservation pending = guardStore.reserveAsync("addr:1", T0);

		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
		assertThatExceptionOfType(RateLimitStoreException.class).isThrownBy(pending::await).withCause(storeError);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
	}

	@Test
	void reservationWhenTheBreakerIsOpenShouldNotBeSent() {
		breaker.transitionToOpenState();

		PendingReservation pending = guardStore.reserveAsync("addr:1", T0);

		assertThatExceptionOfType(StoreNotCalledException.class).isThrownBy(pending::await);
		assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(1);
	}

	@Test
	void failureWhenNotWaitedForAndTheStoreFailsShouldBeRecordedAndReported() {
		CompletableFuture<AuthGuardStore.Failure> counted = guardStore.failAsync("addr:1", null, T0)
			.toCompletableFuture();

		assertThat(counted).failsWithin(Duration.ofSeconds(1))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(RateLimitStoreException.class)
			.havingCause()
			.withCause(storeError);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
	}

	@Test
	void failureWhenTheBreakerIsOpenShouldNotBeSent() {
		breaker.transitionToOpenState();

		CompletableFuture<AuthGuardStore.Failure> counted = guardStore.failAsync("addr:1", null, T0)
			.toCompletableFuture();

		assertThat(counted).failsWithin(Duration.ofSeconds(1))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(StoreNotCalledException.class);
	}

}
