package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/** The algorithms' contract on a Redis Cluster through Jedis instead of Lettuce. */
class RedisRateLimitStoreAlgorithmClusterJedisTests extends RedisRateLimitStoreAlgorithmClusterTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
