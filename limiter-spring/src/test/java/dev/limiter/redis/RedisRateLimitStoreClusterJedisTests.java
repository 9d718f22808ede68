package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/** The store contract on a real Redis Cluster through Jedis instead of Lettuce. */
class RedisRateLimitStoreClusterJedisTests extends RedisRateLimitStoreClusterTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
