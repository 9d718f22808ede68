package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/** Reserve and settle on Jedis instead of Lettuce. */
class RedisRateLimitStoreReserveSettleStandaloneJedisTests extends RedisRateLimitStoreReserveSettleStandaloneTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
