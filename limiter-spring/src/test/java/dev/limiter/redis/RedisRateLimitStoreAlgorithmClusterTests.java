package dev.limiter.redis;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.WindowAlgorithmContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The algorithms' contract, unchanged, on a real three-master Redis Cluster: the script
 * alone, with no local memory.
 */
@UsesRedisServer
class RedisRateLimitStoreAlgorithmClusterTests extends WindowAlgorithmContractTests {

	@RegisterExtension
	static RedisClusterExtension redis = RedisClusterExtension.shared();

	/**
	 * The client the store talks through; the Jedis subclass runs the same tests on
	 * Jedis.
	 */
	protected RedisClientKind client() {
		return RedisClientKind.LETTUCE;
	}

	@Override
	protected RateLimitStore createStore() {
		return RedisRateLimitStore.builder(redis.classConnectionFactory(client()))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();
	}

}
