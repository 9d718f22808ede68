package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One round trip per decision, read from the server's own {@code INFO commandstats}:
 * exactly one EVALSHA for every decision that reached Redis, none for a refusal answered
 * by the local over-limit memory (the {@link OverLimitRememberingStore} the
 * auto-configuration wraps the Redis store in).
 */
@UsesRedisServer
class RedisRateLimitStoreRoundTripTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	/**
	 * The client the store talks through; the Jedis subclass runs the same tests on
	 * Jedis.
	 */
	protected RedisClientKind client() {
		return RedisClientKind.LETTUCE;
	}

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget FIVE_A_MINUTE = Budget.builder("rt")
		.window("minute", 5, Duration.ofMinutes(1))
		.concurrency(2, Duration.ofSeconds(30))
		.build();

	private static final Budget COUNTING = Budget.builder("rt-counting")
		.window("minute", 5, Duration.ofMinutes(1))
		.countRefused(true)
		.build();

	private RateLimitStore store;

	@BeforeEach
	void loadTheScriptThenResetTheStatistics() {
		store = new OverLimitRememberingStore(RedisRateLimitStore.builder(redis.connectionFactory(client()))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build());
		store.take(FIVE_A_MINUTE, "warm-up-" + UUID.randomUUID(), 1, false, T0);
		redis.server().call("CONFIG", "RESETSTAT");
	}

	@Test
	void refusalLoopWhenTheKeyIsKnownOverItsLimitShouldCostNoRoundTripUntilTheWindowResets() {
		String key = UUID.randomUUID().toString();
		List<Decision> decisions = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			decisions.add(store.take(FIVE_A_MINUTE, key, 1, false, T0 + 1_000 + i));
		}
		assertThat(scriptCalls()).containsEntry("evalsha", 5L);

		for (int i = 0; i < 100; i++) {
			decisions.add(store.take(FIVE_A_MINUTE, key, 1, false, T0 + 2_000 + i * 100L));
		}
		assertThat(scriptCalls()).as("refusals answered locally").containsEntry("evalsha", 5L);

		Decision nextMinute = store.take(FIVE_A_MINUTE, key, 1, false, T0 + 60_000);

		assertThat(decisions.subList(0, 5)).allMatch(Decision::allowed);
		assertThat(decisions.subList(5, 105)).noneMatch(Decision::allowed)
			.allSatisfy(d -> assertThat(d.retryAfterMillis()).isEqualTo(T0 + 60_000 - d.decidedAtMillis()));
		assertThat(nextMinute.allowed()).isTrue();
		assertThat(scriptCalls()).containsEntry("evalsha", 6L).containsEntry("eval", 0L);
	}

	@Test
	void requestWhenItNeedsALeaseShouldStillAskRedis() {
		String key = UUID.randomUUID().toString();
		for (int i = 0; i < 5; i++) {
			store.take(FIVE_A_MINUTE, key, 1, false, T0 + i);
		}

		Decision expensive = store.take(FIVE_A_MINUTE, key, 1, true, T0 + 10);

		assertThat(expensive.allowed()).isFalse();
		assertThat(expensive.verdicts()).hasSize(2);
		assertThat(scriptCalls()).containsEntry("evalsha", 6L);
	}

	@Test
	void budgetWhenItCountsRefusalsShouldSendEveryRefusalToRedis() {
		String key = UUID.randomUUID().toString();
		for (int i = 0; i < 8; i++) {
			store.take(COUNTING, key, 1, false, T0 + i);
		}

		assertThat(scriptCalls()).containsEntry("evalsha", 8L);
		assertThat(store.peek(COUNTING, key, T0 + 10).bounds().get(0).remaining()).isZero();
		assertThat(redis.server()
			.call("HGET", new RedisKeys("limiter").all(COUNTING, key).get(0),
					RedisKeys.countField(COUNTING.windows().get(0))))
			.isEqualTo("8");
	}

	@Test
	void scriptWhenTheScriptCacheIsFlushedShouldBeReloadedTransparently() {
		String key = UUID.randomUUID().toString();
		redis.server().call("SCRIPT", "FLUSH");

		Decision first = store.take(FIVE_A_MINUTE, key, 1, false, T0);
		Decision second = store.take(FIVE_A_MINUTE, key, 1, false, T0 + 1);

		assertThat(first.allowed()).isTrue();
		assertThat(second.bindingWindow().remaining()).isEqualTo(3);
		assertThat(scriptCalls()).as("one EVAL after NOSCRIPT, then EVALSHA again").containsEntry("eval", 1L);
	}

	/** Successful calls of EVAL and EVALSHA since the last CONFIG RESETSTAT. */
	private static Map<String, Long> scriptCalls() {
		Map<String, String> stats = redis.server().info("commandstats");
		return Map.of("evalsha", calls(stats.get("cmdstat_evalsha")), "eval", calls(stats.get("cmdstat_eval")));
	}

	private static long calls(String stat) {
		if (stat == null) {
			return 0;
		}
		long calls = 0;
		long failed = 0;
		for (String part : stat.split(",")) {
			String[] kv = part.split("=");
			if (kv[0].equals("calls")) {
				calls = Long.parseLong(kv[1]);
			}
			else if (kv[0].equals("failed_calls") || kv[0].equals("rejected_calls")) {
				failed += Long.parseLong(kv[1]);
			}
		}
		return calls - failed;
	}

}
