package dev.limiter.guard;

/**
 * One store timeout per request with Redis frozen or slow, with Tomcat's requests on
 * virtual threads ({@code spring.threads.virtual.enabled=true}) and the application on
 * Jedis; skipped on a JDK without virtual threads (before 21).
 */
class RequestPathTimeoutVirtualThreadsJedisTests extends RequestPathTimeoutTests {

	@Override
	protected String clientType() {
		return "jedis";
	}

	@Override
	protected boolean virtualThreads() {
		return true;
	}

}
