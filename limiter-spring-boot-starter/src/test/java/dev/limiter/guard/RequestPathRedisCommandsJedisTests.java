package dev.limiter.guard;

/**
 * What one HTTP request sends to Redis, read from MONITOR, with the application on Jedis.
 */
class RequestPathRedisCommandsJedisTests extends RequestPathRedisCommandsTests {

	@Override
	protected String clientType() {
		return "jedis";
	}

}
