package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/** The algorithms' contract on a standalone Redis through Jedis instead of Lettuce. */
class RedisRateLimitStoreAlgorithmStandaloneJedisTests extends RedisRateLimitStoreAlgorithmStandaloneTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
