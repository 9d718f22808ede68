package dev.limiter.guard;

/**
 * What one HTTP request sends to Redis (MONITOR), the lease release included, with
 * Tomcat's requests on virtual threads ({@code spring.threads.virtual.enabled=true}) and
 * the application on Jedis; skipped on a JDK without virtual threads (before 21).
 */
class RequestPathRedisCommandsVirtualThreadsJedisTests extends RequestPathRedisCommandsTests {

	@Override
	protected String clientType() {
		return "jedis";
	}

	@Override
	protected boolean virtualThreads() {
		return true;
	}

}
