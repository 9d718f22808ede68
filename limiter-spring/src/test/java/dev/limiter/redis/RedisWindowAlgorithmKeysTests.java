package dev.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.limiter.core.Budget;
import dev.limiter.core.Window;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a sliding window and a token bucket keep in Redis: a sliding window at most one
 * bucket per resolution step (plus the current one) whatever its limit, a token bucket
 * one timestamp; and both expire once they are whole again, plus the margin.
 */
@UsesRedisServer
class RedisWindowAlgorithmKeysTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private static final long T0 = 1_699_999_200_000L;

	@Test
	void slidingWindowWhenAdmittingEverySecondForLongerThanItShouldHoldOneBucketPerSecondOfIt() {
		RedisRateLimitStore store = RedisRateLimitStore.builder(redis.classConnectionFactory())
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();
		Window minute = Window.sliding("minute", 36_000, Duration.ofMinutes(1));
		Budget budget = Budget.builder("sliding-keys").window(minute).build();
		String key = "k-" + UUID.randomUUID();
		for (int second = 0; second < 150; second++) {
			assertThat(store.take(budget, key, 3, false, T0 + second * 1_000L + 250).allowed()).isTrue();
		}
		List<String> names = new RedisKeys("limiter").all(budget, key);

		String buckets = (String) redis.server().call("HGET", names.get(0), RedisKeys.windowField(minute));
		long bytes = (Long) redis.server().call("MEMORY", "USAGE", names.get(0));
		long ttl = (Long) redis.server().call("PTTL", names.get(0));

		// Buckets 89 .. 149 of the last admission's: the older ones aged out by 149 s.
		assertThat(buckets.split(",")).hasSize(61);
		assertThat(buckets).startsWith(Long.toString(T0 / 1_000 + 89) + "|0:3,1:3,");
		assertThat(bytes).as("MEMORY USAGE").isLessThan(700);
		// Whole again when bucket 149 ages out, at 150 s + 60 s: 60.75 s after the last
		// admission, plus the default margin of 2 s; a second of slack.
		assertThat(ttl).isBetween(60_750L + 2_000 - 1_000, 60_750L + 2_000);
	}

	@Test
	void tokenBucketWhenAdmittingShouldHoldOneTimestampUntilItIsFull() {
		RedisRateLimitStore store = RedisRateLimitStore.builder(redis.classConnectionFactory())
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();
		Window bucket = Window.tokenBucket("tens", 3, Duration.ofSeconds(10), 5);
		Budget budget = Budget.builder("bucket-keys").window(bucket).build();
		String key = "k-" + UUID.randomUUID();
		store.take(budget, key, 2, false, T0);
		List<String> names = new RedisKeys("limiter").all(budget, key);

		String tat = (String) redis.server().call("HGET", names.get(0), RedisKeys.windowField(bucket));
		long ttl = (Long) redis.server().call("PTTL", names.get(0));

		// Two tokens of 3 333.3 ms: full again at 6 666 ms and two thirds.
		assertThat(tat).isEqualTo((T0 + 6_666) + ":2");
		assertThat(ttl).isBetween(6_667L + 2_000 - 1_000, 6_667L + 2_000);
	}

}
