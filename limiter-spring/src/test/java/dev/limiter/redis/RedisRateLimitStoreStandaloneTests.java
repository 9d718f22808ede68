package dev.limiter.redis;

import java.time.Duration;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.RateLimitStoreContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store contract, unchanged, on a real standalone Redis, behind the local over-limit
 * memory as the auto-configuration wires it (the Cluster test runs the script alone).
 */
@UsesRedisServer
class RedisRateLimitStoreStandaloneTests extends RateLimitStoreContractTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	/**
	 * The client the store talks through; the Jedis subclass runs the same tests on
	 * Jedis.
	 */
	protected RedisClientKind client() {
		return RedisClientKind.LETTUCE;
	}

	@Override
	protected RateLimitStore createStore() {
		return new OverLimitRememberingStore(RedisRateLimitStore.builder(redis.classConnectionFactory(client()))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build());
	}

	@Test
	void keysWhenWrittenAtTheResetMinusOneAtAndPlusOneMillisecondShouldExpireAtTheMarginAfterTheirLatestEnd() {
		RedisRateLimitStore raw = RedisRateLimitStore.builder(redis.classConnectionFactory(client()))
			.timeout(RedisTestTimeouts.GENEROUS)
			.expiryMargin(Duration.ofSeconds(2))
			.build();
		Budget budget = Budget.builder("ttl")
			.window("second", 10, Duration.ofSeconds(1))
			.concurrency(5, Duration.ofMillis(1_500))
			.build();
		long reset = T0 + 1_000;
		List<String> names = new RedisKeys("limiter").all(budget, key);

		for (long at : new long[] { reset - 1, reset, reset + 1 }) {
			raw.take(budget, key, 1, true, at);
			long windowsTtl = (Long) redis.server().call("PTTL", names.get(0));
			long leasesTtl = (Long) redis.server().call("PTTL", names.get(1));

			long windowEnd = Math.floorDiv(at, 1_000) * 1_000 + 1_000;
			// PTTL only counts down from what the script set; a second of slack absorbs a
			// slow machine.
			assertThat(windowsTtl).as("windows at %d", at - reset)
				.isBetween(windowEnd - at + 2_000 - 1_000, windowEnd - at + 2_000);
			assertThat(leasesTtl).as("leases at %d", at - reset).isBetween(1_500 + 2_000 - 1_000L, 1_500 + 2_000L);
		}
	}

}
