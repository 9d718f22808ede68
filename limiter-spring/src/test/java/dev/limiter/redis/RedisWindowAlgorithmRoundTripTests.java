package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Window;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A budget that mixes the three algorithms (a sliding window, a token bucket and a fixed
 * window) is decided in one script call per decision on every Redis topology the starter
 * supports: standalone, the master a Sentinel names, and a three-master Cluster; on
 * Lettuce and on Jedis. The calls are read from the servers' own
 * {@code INFO commandstats}, and every answer is the one the in-memory store gives for
 * the same sequence (the same arithmetic, ADRs 0008 and 0009). The Redis store is used
 * bare, without the local over-limit memory, so that every decision reaches Redis.
 */
@UsesRedisServer
class RedisWindowAlgorithmRoundTripTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	@RegisterExtension
	static RedisClusterExtension cluster = RedisClusterExtension.shared();

	private static final String MASTER_NAME = "limiter-algorithms";

	private static final long T0 = 1_699_999_200_000L;

	private static final int DECISIONS = 40;

	/** 5 in any 10 s, a bucket of 4 refilled at 3 per 6 s, 8 a minute. */
	private static final Budget MIXED = Budget.builder("round-trip-mixed")
		.window(Window.sliding("tens", 5, Duration.ofSeconds(10)))
		.window(Window.tokenBucket("bucket", 3, Duration.ofSeconds(6), 4))
		.window("minute", 8, Duration.ofMinutes(1))
		.build();

	private static RedisServerProcess master;

	private static RedisServerProcess sentinel;

	@BeforeAll
	static void startMasterAndSentinel() {
		master = RedisServerProcess.start();
		sentinel = RedisServerProcess.startSentinel(MASTER_NAME, master.port());
	}

	@AfterAll
	static void stopMasterAndSentinel() {
		sentinel.close();
		master.close();
	}

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void mixedBudgetOnStandaloneRedisShouldCostOneScriptCallPerDecisionAndAnswerAsInMemory(RedisClientKind client) {
		assertOneScriptCallPerExactDecision(redis.connectionFactory(client), List.of(redis.server()));
	}

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void mixedBudgetThroughSentinelShouldCostOneScriptCallPerDecisionOnTheMasterAndAnswerAsInMemory(
			RedisClientKind client) {
		RedisConnectionFactory factory = client.sentinel(MASTER_NAME, sentinel);
		try {
			assertOneScriptCallPerExactDecision(factory, List.of(master));
		}
		finally {
			RedisClientKind.destroy(factory);
		}
	}

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void mixedBudgetOnARedisClusterShouldCostOneScriptCallPerDecisionAndAnswerAsInMemory(RedisClientKind client) {
		assertOneScriptCallPerExactDecision(cluster.connectionFactory(client), cluster.cluster().nodes());
	}

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void refusalsOfASlidingWindowOrATokenBucketWhenKnownShouldCostNoScriptCallUntilTheirRetry(RedisClientKind client) {
		RateLimitStore store = new OverLimitRememberingStore(
				RedisRateLimitStore.builder(redis.connectionFactory(client))
					.timeout(RedisTestTimeouts.GENEROUS)
					.build());
		Budget sliding = Budget.builder("refused-sliding")
			.window(Window.sliding("tens", 5, Duration.ofSeconds(10)))
			.build();
		Budget bucket = Budget.builder("refused-bucket")
			.window(Window.tokenBucket("tens", 5, Duration.ofSeconds(10)))
			.build();
		store.take(sliding, "warm-up-" + UUID.randomUUID(), 1, false, T0);
		for (Budget budget : List.of(sliding, bucket)) {
			String key = "refused-" + UUID.randomUUID();
			for (int i = 0; i < 5; i++) {
				assertThat(store.take(budget, key, 1, false, T0 + 1_000).allowed()).isTrue();
			}
			redis.server().call("CONFIG", "RESETSTAT");
			// The fifth admission left nothing: the memory knows the key is full until
			// its
			// retry, so even the first refusal is answered locally.
			Decision first = store.take(budget, key, 1, false, T0 + 1_000);
			long retryAt = first.decidedAtMillis() + first.retryAfterMillis();
			for (long now = T0 + 1_000; now < retryAt; now += 97) {
				assertThat(store.take(budget, key, 1, false, now).allowed()).as("%s at %d", budget.name(), now)
					.isFalse();
			}

			assertThat(first.allowed()).isFalse();
			assertThat(scriptCalls(List.of(redis.server()))).as("%s: refusals answered locally", budget.name())
				.isZero();
			assertThat(store.take(budget, key, 1, false, retryAt).allowed()).as("%s at its retry", budget.name())
				.isTrue();
			assertThat(scriptCalls(List.of(redis.server()))).isEqualTo(1);
		}
	}

	private void assertOneScriptCallPerExactDecision(RedisConnectionFactory factory, List<RedisServerProcess> servers) {
		RateLimitStore store = RedisRateLimitStore.builder(factory).timeout(RedisTestTimeouts.GENEROUS).build();
		RateLimitStore memory = RateLimitStores.inMemory(100);
		// Loads the script and connects; the statistics start after it.
		store.take(MIXED, "warm-up-" + UUID.randomUUID(), 1, false, T0);
		servers.forEach((server) -> server.call("CONFIG", "RESETSTAT"));
		String key = "rt-" + UUID.randomUUID();
		List<String> refusedBy = new ArrayList<>();

		for (int i = 0; i < DECISIONS; i++) {
			// 700 ms apart: 28 s, in which each of the three windows refuses in turn.
			long now = T0 + 1_000 + i * 700L;
			Decision expected = memory.take(MIXED, key, 1, false, now);
			Decision actual = store.take(MIXED, key, 1, false, now);
			String what = "decision " + i + "\nexpected " + expected + "\nactual   " + actual;
			assertThat(actual.allowed()).as(what).isEqualTo(expected.allowed());
			assertThat(actual.verdicts()).as(what).isEqualTo(expected.verdicts());
			assertThat(actual.retryAfterMillis()).as(what).isEqualTo(expected.retryAfterMillis());
			assertThat(actual.bindingWindow()).as(what).isEqualTo(expected.bindingWindow());
			expected.verdicts().stream().filter(BoundVerdict::refused).map(BoundVerdict::name).forEach(refusedBy::add);
		}

		assertThat(refusedBy).as("the sequence meets every algorithm's refusal").contains("tens", "bucket", "minute");
		assertThat(scriptCalls(servers)).as("script calls on %d server(s)", servers.size()).isEqualTo(DECISIONS);
	}

	/** Successful EVALSHA and EVAL calls since the last CONFIG RESETSTAT, summed. */
	private static long scriptCalls(List<RedisServerProcess> servers) {
		long total = 0;
		for (RedisServerProcess server : servers) {
			Map<String, String> stats = server.info("commandstats");
			total += calls(Optional.ofNullable(stats.get("cmdstat_evalsha")))
					+ calls(Optional.ofNullable(stats.get("cmdstat_eval")));
		}
		return total;
	}

	private static long calls(Optional<String> stat) {
		long calls = 0;
		for (String part : stat.orElse("").split(",")) {
			String[] kv = part.split("=");
			if (kv[0].equals("calls")) {
				calls += Long.parseLong(kv[1]);
			}
			else if (kv[0].equals("failed_calls") || kv[0].equals("rejected_calls")) {
				calls -= Long.parseLong(kv[1]);
			}
		}
		return calls;
	}

}
