package dev.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.Reservation;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A settlement sent while Redis is frozen (SIGSTOP: connections open, nothing answers):
 * {@code settle} returns before any answer and fails within the store's one timeout,
 * never retried (ADR 0012); once Redis thaws, the settlement has been applied once or
 * dropped, never twice, every estimate is still counted, and the next settlement lands.
 */
@UsesRedisServer
class RedisSettleFrozenTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final long NOW = 1_699_999_200_000L + 1_000;

	private static final Budget BUDGET = Budget.builder("frozen-settle")
		.window(Window.of("tokens", 10_000, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	/** The client the store talks through; the Jedis subclass runs the same test. */
	protected RedisClientKind client() {
		return RedisClientKind.LETTUCE;
	}

	@Test
	void settleWhenRedisIsFrozenShouldReturnAtOnceFailWithinTheTimeoutAndLoseNothingElse() throws Exception {
		RedisRateLimitStore store = RedisRateLimitStore.builder(redis.classConnectionFactory(client()))
			.timeout(Duration.ofMillis(300))
			.build();
		String key = "frozen-" + UUID.randomUUID();
		Reservation first = reserve(store, key);
		Reservation second = reserve(store, key);

		redis.server().pause();
		CompletableFuture<List<ThresholdCrossing>> sent;
		try {
			sent = store.settle(first.settle(Map.of("tokens", 5_000L)).orElseThrow(), NOW).toCompletableFuture();
			// returned without an answer: nothing on the response path waited for Redis
			assertThat(sent.isDone()).isFalse();
			assertThatThrownBy(() -> sent.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
				.hasCauseInstanceOf(RateLimitStoreException.class);
		}
		finally {
			redis.server().resume();
		}

		// A script that timed out may still run once Redis thaws (it was already on the
		// wire): the settlement is then applied once, or else dropped; never twice, and
		// both estimates are counted whichever it was.
		long afterThaw = remaining(store, key);
		assertThat(afterThaw).isIn(10_000L - 200, 10_000L - 100 - 5_000);
		store.settle(second.settle(Map.of("tokens", 700L)).orElseThrow(), NOW)
			.toCompletableFuture()
			.get(30, TimeUnit.SECONDS);
		assertThat(remaining(store, key)).isEqualTo(afterThaw - 600);
	}

	private static Reservation reserve(RedisRateLimitStore store, String key) {
		long[] amounts = BUDGET.amounts(1, Map.of("tokens", 100L));
		Decision decision = store.reserve(BUDGET, key, amounts, false, NOW);
		return Reservation.of(BUDGET, key, decision, amounts).orElseThrow();
	}

	private static long remaining(RedisRateLimitStore store, String key) {
		return store.peek(BUDGET, key, NOW).bounds().get(0).remaining();
	}

}
