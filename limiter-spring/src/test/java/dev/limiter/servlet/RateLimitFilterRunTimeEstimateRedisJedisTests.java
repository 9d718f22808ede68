package dev.limiter.servlet;

import dev.limiter.test.redis.RedisClientKind;

/** {@link RateLimitFilterRunTimeEstimateRedisTests} through Jedis. */
class RateLimitFilterRunTimeEstimateRedisJedisTests extends RateLimitFilterRunTimeEstimateRedisTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
