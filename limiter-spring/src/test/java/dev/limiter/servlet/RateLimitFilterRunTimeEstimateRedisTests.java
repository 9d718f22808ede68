package dev.limiter.servlet;

import java.time.Duration;

import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.redis.RedisRateLimitStore;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RateLimitFilterRunTimeEstimateTests} on a real standalone Redis (the store as
 * the auto-configuration wires it); the Jedis subclass runs the same tests.
 */
@UsesRedisServer
class RateLimitFilterRunTimeEstimateRedisTests extends RateLimitFilterRunTimeEstimateTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	/** The client the store talks through. */
	protected RedisClientKind client() {
		return RedisClientKind.LETTUCE;
	}

	@Override
	protected RateLimitStore createStore() {
		// a generous timeout: the machine is shared, and this test is about configuration
		return new OverLimitRememberingStore(RedisRateLimitStore.builder(redis.classConnectionFactory(client()))
			.timeout(Duration.ofSeconds(10))
			.build());
	}

}
