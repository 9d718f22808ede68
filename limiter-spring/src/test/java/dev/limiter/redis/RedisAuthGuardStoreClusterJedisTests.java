package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/** The guard's contract on a real Redis Cluster through Jedis instead of Lettuce. */
class RedisAuthGuardStoreClusterJedisTests extends RedisAuthGuardStoreClusterTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
