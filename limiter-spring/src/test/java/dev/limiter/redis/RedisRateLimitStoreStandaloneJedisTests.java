package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/** The store contract and the key expiry on Jedis instead of Lettuce. */
class RedisRateLimitStoreStandaloneJedisTests extends RedisRateLimitStoreStandaloneTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
