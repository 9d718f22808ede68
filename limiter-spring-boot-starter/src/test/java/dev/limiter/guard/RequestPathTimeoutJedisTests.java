package dev.limiter.guard;

/**
 * One store timeout per request with Redis frozen or slow, with the application on Jedis.
 */
class RequestPathTimeoutJedisTests extends RequestPathTimeoutTests {

	@Override
	protected String clientType() {
		return "jedis";
	}

}
