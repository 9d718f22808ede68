package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/**
 * One round trip per decision, counted by the server, through Jedis instead of Lettuce.
 */
class RedisRateLimitStoreRoundTripJedisTests extends RedisRateLimitStoreRoundTripTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
