package dev.limiter.resilience;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Lease;
import dev.limiter.core.Reservation;
import dev.limiter.core.Settlement;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.StoreMode;
import dev.limiter.core.Window;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.PendingAdmission;
import dev.limiter.redis.RedisRateLimitStore;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.reactive.NonBlockingThreads;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole store stack as {@link StoreStack} builds it over Redis (slices in front of
 * fail-open, breaker, over-limit memory, the Redis store; the guard's store beside it),
 * every call made from a non-blocking thread (Reactor's {@code parallel}, as a reactive
 * request's code runs on an event loop) under BlockHound: the asynchronous calls decide
 * as the synchronous ones and never block, whichever thread completes them (Lettuce's
 * event loop is a non-blocking thread too). The standalone subclass also freezes Redis.
 */
@ExtendWith(BlockHoundExtension.class)
abstract class StoreStackNonBlockingTests {

	/** The store's one timeout ({@code limiter.redis.timeout}). */
	protected static final Duration TIMEOUT = Duration.ofMillis(300);

	private static final Budget THREE_A_MINUTE = Budget.builder("three")
		.window("minute", 3, Duration.ofMinutes(1))
		.build();

	private static final Budget ONE_AT_A_TIME = Budget.builder("one-at-a-time")
		.window("minute", 100, Duration.ofMinutes(1))
		.concurrency(1, Duration.ofSeconds(30))
		.build();

	private static final Budget TOKENS = Budget.builder("tokens")
		.window(Window.of("tokens", 1_000, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	private static final Budget SLICED_THIRTY_A_MINUTE = Budget.builder("sliced")
		.window("minute", 30, Duration.ofMinutes(1))
		.slices(new SliceTerms(10, Duration.ofSeconds(5)))
		.build();

	protected static final AuthGuardPolicy GUARD = new AuthGuardPolicy(3, Duration.ofMinutes(1), Duration.ofMinutes(2),
			5, Duration.ofSeconds(10), Duration.ZERO);

	protected CircuitBreaker breaker;

	protected FailOpenRateLimitStore stack;

	protected AuthGuard guard;

	protected String key;

	protected long now;

	protected abstract RedisConnectionFactory connectionFactory();

	@BeforeEach
	void buildTheStack() {
		breaker = CircuitBreaker.of("limiter",
				CircuitBreakerConfig.custom()
					.slidingWindowSize(20)
					.minimumNumberOfCalls(20)
					.waitDurationInOpenState(Duration.ofMinutes(1))
					.build());
		FailurePolicy policy = new FailurePolicy(breaker, 1_000, Set.of(), List.of());
		RedisRateLimitStore redis = RedisRateLimitStore.builder(connectionFactory()).timeout(TIMEOUT).build();
		assertThat(redis.answersWithoutBlocking()).isTrue();
		stack = StoreStack.remote(redis, policy);
		AuthGuardStore guardStore = StoreStack.guard(stack, GUARD, policy);
		guard = new AuthGuard(guardStore, GUARD);
		key = "k-" + UUID.randomUUID();
		now = System.currentTimeMillis();
	}

	@Test
	void takeAsyncWhenCalledFromAnEventLoopShouldAdmitToTheLimitThenRefuseWithoutBlocking() {
		for (int i = 0; i < 3; i++) {
			Decision admitted = take(THREE_A_MINUTE, false);
			assertThat(admitted.allowed()).as("request %d", i + 1).isTrue();
			assertThat(admitted.degraded()).isFalse();
		}

		Decision refused = take(THREE_A_MINUTE, false);
		Decision refusedFromMemory = take(THREE_A_MINUTE, false);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.degraded()).isFalse();
		assertThat(refusedFromMemory.allowed()).isFalse();
		assertThat(refusedFromMemory.retryAfterMillis()).isPositive();
	}

	@Test
	void takeAsyncWhenTheBudgetIsSlicedShouldTakeSlicesFromRedisAndAdmitToTheLimitWithoutBlocking() {
		Decision first = take(SLICED_THIRTY_A_MINUTE, false);

		assertThat(first.allowed()).isTrue();
		assertThat(first.degraded()).isFalse();
		assertThat(stack.peek(SLICED_THIRTY_A_MINUTE, key, now).bounds().get(0).remaining())
			.as("a whole slice counted in Redis by the first request")
			.isEqualTo(20);
		for (int i = 1; i < 30; i++) {
			Decision admitted = take(SLICED_THIRTY_A_MINUTE, false);
			assertThat(admitted.allowed()).as("request %d", i + 1).isTrue();
			assertThat(admitted.degraded()).isFalse();
		}

		Decision refused = take(SLICED_THIRTY_A_MINUTE, false);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.degraded()).isFalse();
		assertThat(refused.retryAfterMillis()).isPositive();
		assertThat(stack.peek(SLICED_THIRTY_A_MINUTE, key, now).bounds().get(0).remaining()).isZero();
	}

	@Test
	void reserveAsyncThenSettleWhenCalledFromAnEventLoopShouldCountWhatWasReported() {
		long[] amounts = TOKENS.amounts(1, Map.of("tokens", 100L));
		Decision reserved = NonBlockingThreads.call(() -> stack.reserveAsync(TOKENS, key, amounts, false, now));
		assertThat(reserved.allowed()).isTrue();
		assertThat(reserved.degraded()).isFalse();
		Settlement settlement = Reservation.of(TOKENS, key, reserved, amounts)
			.orElseThrow()
			.settle(Map.of("tokens", 300L))
			.orElseThrow();

		NonBlockingThreads.call(() -> stack.settle(settlement, now));

		assertThat(stack.peek(TOKENS, key, now).bounds().get(0).remaining()).isEqualTo(700);
	}

	@Test
	void leaseWhenRenewedAndReleasedFromAnEventLoopShouldHoldItsSlotUntilReleased() {
		Decision first = take(ONE_AT_A_TIME, true);
		Lease lease = first.lease().orElseThrow();
		assertThat(take(ONE_AT_A_TIME, true).allowed()).as("the slot is held").isFalse();

		assertThat(NonBlockingThreads.call(() -> stack.renewAsync(lease, now + 60_000, now))).isTrue();
		NonBlockingThreads.run(() -> {
			stack.release(lease, now);
			return lease;
		});

		assertThat(NonBlockingThreads.call(() -> stack.renewAsync(lease, now + 90_000, now)))
			.as("a released lease is never renewed")
			.isFalse();
		assertThat(take(ONE_AT_A_TIME, true).allowed()).as("the slot is free again").isTrue();
	}

	@Test
	void guardWhenBegunFromAnEventLoopShouldReserveAndCountAFailureWithoutBlocking() {
		String address = "addr:" + UUID.randomUUID();

		GuardAdmission admission = admit(address);

		assertThat(admission.admitted()).isTrue();
		assertThat(admission.degraded()).isFalse();
		assertThat(admission.reservation()).isNotNull();
		assertThat(NonBlockingThreads.call(() -> guard.failedWithoutWaiting(admission, now))).isFalse();
		assertThat(guard.state(address, now).failures()).isEqualTo(1);
	}

	@Test
	void takeAsyncWhenTheBreakerIsOpenShouldAnswerFromTheFallbackAtOnce() {
		breaker.transitionToOpenState();

		long start = System.nanoTime();
		Decision decision = take(THREE_A_MINUTE, false);
		long tookMillis = (System.nanoTime() - start) / 1_000_000;

		assertThat(decision.allowed()).isTrue();
		assertThat(decision.degraded()).isTrue();
		assertThat(tookMillis).as("no round trip, no timeout").isLessThan(TIMEOUT.toMillis());
		assertThat(stack.mode()).isEqualTo(StoreMode.DEGRADED);
		assertThat(admit("addr:" + UUID.randomUUID()).degraded()).as("the guard's store shares the breaker").isTrue();
	}

	@Test
	void takeAsyncWhenTheBreakerIsOpenAndASliceIsHeldShouldAdmitFromItUndegradedThenAnswerFromTheFallback() {
		take(SLICED_THIRTY_A_MINUTE, false);
		int breakerCalls = breaker.getMetrics().getNumberOfBufferedCalls();
		breaker.transitionToOpenState();

		for (int i = 1; i < 10; i++) {
			Decision local = take(SLICED_THIRTY_A_MINUTE, false);
			assertThat(local.allowed()).as("admitted from the slice, request %d", i + 1).isTrue();
			assertThat(local.degraded()).as("counted in Redis already, request %d", i + 1).isFalse();
		}
		Decision next = take(SLICED_THIRTY_A_MINUTE, false);

		assertThat(breakerCalls).as("the slice call passed the breaker").isEqualTo(1);
		assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).as("only the next slice call").isEqualTo(1);
		assertThat(next.allowed()).isTrue();
		assertThat(next.degraded()).isTrue();
		assertThat(stack.mode()).isEqualTo(StoreMode.DEGRADED);
	}

	@Test
	void takeAsyncWhenTheBreakerIsOpenShouldCompleteBeforeReturning() {
		breaker.transitionToOpenState();

		Boolean doneAtOnce = NonBlockingThreads
			.run(() -> stack.takeAsync(THREE_A_MINUTE, key, 1, false, now).toCompletableFuture().isDone());

		assertThat(doneAtOnce).isTrue();
	}

	protected Decision take(Budget budget, boolean expensive) {
		return NonBlockingThreads.call(() -> stack.takeAsync(budget, key, 1, expensive, now));
	}

	protected GuardAdmission admit(String address) {
		String credential = "credential-" + UUID.randomUUID();
		return NonBlockingThreads.call(() -> {
			PendingAdmission pending = guard.beginWithoutWaiting(address, credential, now);
			return pending.toStage();
		});
	}

}
