package dev.limiter.resilience;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Lease;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.redis.RedisRateLimitStore;
import dev.limiter.test.reactive.NonBlockingThreads;
import dev.limiter.test.redis.DelayingProxy;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StoreStackNonBlockingTests} on a standalone Redis of its own, which it also
 * freezes (SIGSTOP: connections open, nothing answers): a decision and a guard admission
 * asked from an event loop come back degraded within the timeout (+ 100 ms), decided by
 * the fallback on the timer's thread, with no thread waiting.
 */
@UsesRedisServer
class StoreStackNonBlockingStandaloneTests extends StoreStackNonBlockingTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final Budget LEASED = Budget.builder("leased")
		.window("minute", 5, Duration.ofMinutes(1))
		.concurrency(2, Duration.ofSeconds(30))
		.build();

	private static final Budget FROZEN = Budget.builder("frozen").window("minute", 5, Duration.ofMinutes(1)).build();

	private static final Budget FROZEN_SLICED = Budget.builder("frozen-sliced")
		.window("minute", 1_000, Duration.ofMinutes(1))
		.slices(new SliceTerms(5, Duration.ofSeconds(30)))
		.build();

	@Override
	protected RedisConnectionFactory connectionFactory() {
		return redis.classConnectionFactory(RedisClientKind.LETTUCE);
	}

	@Test
	void callsWhenEveryReplyTakesFiftyMillisecondsShouldBeAnsweredWithNoThreadWaiting() {
		try (DelayingProxy proxy = new DelayingProxy(redis.port())) {
			LettuceConnectionFactory slow = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", proxy.port()));
			slow.afterPropertiesSet();
			slow.start();
			try {
				FailurePolicy policy = new FailurePolicy(breaker, 1_000, Set.of(), List.of());
				FailOpenRateLimitStore slowStack = StoreStack
					.remote(RedisRateLimitStore.builder(slow).timeout(TIMEOUT).build(), policy);
				AuthGuard slowGuard = new AuthGuard(StoreStack.guard(slowStack, GUARD, policy), GUARD);
				proxy.delay(Duration.ofMillis(50));

				Decision decision = NonBlockingThreads.call(() -> slowStack.takeAsync(LEASED, key, 1, true, now));
				Lease lease = decision.lease().orElseThrow();
				boolean renewed = NonBlockingThreads.call(() -> slowStack.renewAsync(lease, now + 60_000, now));
				String address = "addr:" + UUID.randomUUID();
				GuardAdmission admission = NonBlockingThreads
					.call(() -> slowGuard.beginWithoutWaiting(address, "credential", now).toStage());

				assertThat(decision.allowed()).isTrue();
				assertThat(decision.degraded()).as("answered by Redis, in time").isFalse();
				assertThat(renewed).isTrue();
				assertThat(admission.reservation()).as("reserved in Redis").isNotNull();
				assertThat(admission.degraded()).isFalse();
			}
			finally {
				slow.destroy();
			}
		}
	}

	@Test
	void takeAsyncWhenRedisIsFrozenShouldAnswerDegradedWithinTheTimeoutWithoutBlocking() {
		// connected and scripts loaded before the freeze, as in a running application
		assertThat(take(FROZEN, false).degraded()).isFalse();

		redis.server().pause();
		try {
			long start = System.nanoTime();
			Decision decision = take(FROZEN, false);
			long tookMillis = (System.nanoTime() - start) / 1_000_000;

			assertThat(decision.allowed()).isTrue();
			assertThat(decision.degraded()).isTrue();
			assertThat(tookMillis).isLessThan(TIMEOUT.toMillis() + 100);
		}
		finally {
			redis.server().resume();
		}
	}

	@Test
	void takeAsyncWhenTheBudgetIsSlicedAndRedisIsFrozenShouldSpendTheSliceThenAnswerDegradedWithinTheTimeout() {
		// the first request takes a slice of five: itself and four more
		assertThat(take(FROZEN_SLICED, false).degraded()).isFalse();

		redis.server().pause();
		try {
			for (int i = 0; i < 4; i++) {
				Decision local = take(FROZEN_SLICED, false);
				assertThat(local.allowed()).as("admitted from the slice, request %d", i + 2).isTrue();
				assertThat(local.degraded()).as("counted in Redis already").isFalse();
			}
			long start = System.nanoTime();
			Decision decision = take(FROZEN_SLICED, false);
			long tookMillis = (System.nanoTime() - start) / 1_000_000;

			assertThat(decision.allowed()).isTrue();
			assertThat(decision.degraded()).as("the next slice never came").isTrue();
			assertThat(tookMillis).isLessThan(TIMEOUT.toMillis() + 100);
		}
		finally {
			redis.server().resume();
		}
	}

	@Test
	void takeSliceAsyncWhenRedisIsFrozenShouldAnswerDegradedWithinTheTimeoutWithoutBlocking() {
		SliceTerms terms = FROZEN_SLICED.slices().orElseThrow();
		assertThat(NonBlockingThreads.call(() -> stack.takeSliceAsync(FROZEN_SLICED, key, 1, terms, now)).units())
			.as("a slice taken from Redis through the stack")
			.isEqualTo(5);

		redis.server().pause();
		try {
			long start = System.nanoTime();
			Slice slice = NonBlockingThreads.call(() -> stack.takeSliceAsync(FROZEN_SLICED, key, 1, terms, now));
			long tookMillis = (System.nanoTime() - start) / 1_000_000;

			assertThat(slice.decision().allowed()).isTrue();
			assertThat(slice.decision().degraded()).isTrue();
			assertThat(slice.units()).as("the request alone").isEqualTo(1);
			assertThat(tookMillis).isLessThan(TIMEOUT.toMillis() + 100);
		}
		finally {
			redis.server().resume();
		}
	}

	@Test
	void guardAdmissionWhenRedisIsFrozenShouldAnswerDegradedWithinTheTimeoutWithoutBlocking() {
		assertThat(admit("addr:" + UUID.randomUUID()).degraded()).isFalse();

		redis.server().pause();
		try {
			long start = System.nanoTime();
			GuardAdmission admission = admit("addr:" + UUID.randomUUID());
			long tookMillis = (System.nanoTime() - start) / 1_000_000;

			assertThat(admission.admitted()).isTrue();
			assertThat(admission.degraded()).isTrue();
			assertThat(tookMillis).isLessThan(TIMEOUT.toMillis() + 100);
		}
		finally {
			redis.server().resume();
		}
	}

}
