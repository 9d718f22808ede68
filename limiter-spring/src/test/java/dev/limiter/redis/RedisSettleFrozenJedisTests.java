package dev.limiter.redis;

import dev.limiter.test.redis.RedisClientKind;

/** A settlement while Redis is frozen, on Jedis instead of Lettuce. */
class RedisSettleFrozenJedisTests extends RedisSettleFrozenTests {

	@Override
	protected RedisClientKind client() {
		return RedisClientKind.JEDIS;
	}

}
