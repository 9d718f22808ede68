package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/** The guard's contract on a standalone Redis through Jedis instead of Lettuce. */
class RedisAuthGuardStoreStandaloneJedisTests extends RedisAuthGuardStoreStandaloneTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
