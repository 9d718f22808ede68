package dev.limiter.redis;

import java.time.Duration;

import dev.limiter.core.Budget;
import dev.limiter.core.Lease;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * On a client that blocks the calling thread (Jedis), the store says so
 * ({@link RedisRateLimitStore#answersWithoutBlocking()}, what a reactive application's
 * start-up checks) and its asynchronous calls refuse in one line naming the fix, instead
 * of blocking an event loop.
 */
@UsesRedisServer
class RedisRateLimitStoreBlockingClientTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private static final long NOW = 1_699_999_200_000L;

	private static final Budget BUDGET = Budget.builder("b").window("minute", 10, Duration.ofMinutes(1)).build();

	@Test
	void asyncCallsWhenOnJedisShouldRefuseNamingLettuce() {
		RedisRateLimitStore store = RedisRateLimitStore.builder(redis.classConnectionFactory(RedisClientKind.JEDIS))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();

		assertThat(store.answersWithoutBlocking()).isFalse();
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> store.takeAsync(BUDGET, "k", 1, false, NOW))
			.withMessage("limiter's Redis store on jedis blocks the calling thread; a reactive application needs "
					+ "Lettuce with its shared connection (spring.data.redis.client-type=lettuce)");
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> store.reserveAsync(BUDGET, "k", new long[] { 1 }, false, NOW));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> store.renewAsync(new Lease("b", "k", "id", NOW + 1_000), NOW + 2_000, NOW));
		assertThat(store.take(BUDGET, "k", 1, false, NOW).allowed()).as("the servlet path is unchanged").isTrue();
	}

	@Test
	void answersWithoutBlockingWhenOnLettucesSharedConnectionShouldBeTrue() {
		RedisRateLimitStore store = RedisRateLimitStore.builder(redis.classConnectionFactory(RedisClientKind.LETTUCE))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();

		assertThat(store.answersWithoutBlocking()).isTrue();
	}

}
