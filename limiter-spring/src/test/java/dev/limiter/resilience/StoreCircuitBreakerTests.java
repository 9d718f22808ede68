package dev.limiter.resilience;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.limiter.core.RateLimitStoreException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StoreCircuitBreaker#callAsync}: the breaker records the store's own failure of a
 * call answered later, whatever {@link java.util.concurrent.CompletionException} the
 * stage wraps it in, so that a breaker configured on the store's exceptions counts it.
 */
class StoreCircuitBreakerTests {

	private final CircuitBreaker breaker = CircuitBreaker.of("limiter",
			CircuitBreakerConfig.custom()
				.slidingWindowSize(2)
				.minimumNumberOfCalls(2)
				.recordExceptions(RateLimitStoreException.class)
				.waitDurationInOpenState(Duration.ofMinutes(1))
				.build());

	private final StoreCircuitBreaker storeBreaker = new StoreCircuitBreaker(breaker);

	@Test
	void callAsyncWhenADependentStageFailsShouldRecordTheStoresOwnFailure() {
		CompletableFuture<String> sent = CompletableFuture.completedFuture("sent");
		CompletableFuture<String> failed = storeBreaker.callAsync(() -> sent.thenApply(this::timedOut))
			.toCompletableFuture();

		assertThat(failed.handle((answer, failure) -> failure).join()).isInstanceOf(RateLimitStoreException.class)
			.hasMessage("Redis store did not answer within 300ms");
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isZero();
	}

	@Test
	void callAsyncWhenTheStageCompletesShouldRecordASuccessAndAnswer() {
		CompletableFuture<String> answered = storeBreaker.callAsync(() -> CompletableFuture.completedFuture("answered"))
			.toCompletableFuture();

		assertThat(answered.join()).isEqualTo("answered");
		assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(1);
	}

	/**
	 * A recording that throws (an event loop's lock check refusing a contended lock, say)
	 * must not leave the request waiting for an answer that already came.
	 */
	@Test
	void callAsyncWhenTheBreakerCannotRecordShouldStillAnswer() {
		StoreCircuitBreaker unrecording = new StoreCircuitBreaker(failingToRecord(breaker));

		CompletableFuture<String> answered = unrecording.callAsync(() -> CompletableFuture.completedFuture("answered"))
			.toCompletableFuture();
		CompletableFuture<String> failed = unrecording
			.callAsync(() -> CompletableFuture
				.<String>failedFuture(new RateLimitStoreException("Redis store did not answer within 300ms")))
			.toCompletableFuture();

		assertThat(answered).isCompletedWithValue("answered");
		assertThat(failed).isCompletedExceptionally();
		assertThat(failed.handle((answer, failure) -> failure).join()).isInstanceOf(RateLimitStoreException.class);
	}

	/** {@code breaker}, except that recording a call's outcome throws an error. */
	private static CircuitBreaker failingToRecord(CircuitBreaker breaker) {
		return (CircuitBreaker) Proxy.newProxyInstance(CircuitBreaker.class.getClassLoader(),
				new Class<?>[] { CircuitBreaker.class }, (proxy, method, args) -> {
					if (method.getName().equals("onResult") || method.getName().equals("onSuccess")
							|| method.getName().equals("onError")) {
						throw new AssertionError("Blocking call! jdk.internal.misc.Unsafe#park");
					}
					try {
						return method.invoke(breaker, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
	}

	private String timedOut(String sent) {
		throw new RateLimitStoreException("Redis store did not answer within 300ms");
	}

}
