package dev.limiter.guard;

/**
 * What one HTTP request sends to Redis (MONITOR), the lease release included, with
 * Tomcat's requests on virtual threads ({@code spring.threads.virtual.enabled=true});
 * skipped on a JDK without virtual threads (before 21).
 */
class RequestPathRedisCommandsVirtualThreadsTests extends RequestPathRedisCommandsTests {

	@Override
	protected boolean virtualThreads() {
		return true;
	}

}
