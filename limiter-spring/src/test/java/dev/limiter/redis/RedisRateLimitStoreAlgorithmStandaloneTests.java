package dev.limiter.redis;

import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.WindowAlgorithmContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The algorithms' contract, unchanged, on a real standalone Redis, behind the local
 * over-limit memory as the auto-configuration wires it.
 */
@UsesRedisServer
class RedisRateLimitStoreAlgorithmStandaloneTests extends WindowAlgorithmContractTests {

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

}
