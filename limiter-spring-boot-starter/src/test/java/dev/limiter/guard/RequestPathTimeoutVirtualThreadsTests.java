package dev.limiter.guard;

/**
 * One store timeout per request with Redis frozen or slow, with Tomcat's requests on
 * virtual threads ({@code spring.threads.virtual.enabled=true}); skipped on a JDK without
 * virtual threads (before 21).
 */
class RequestPathTimeoutVirtualThreadsTests extends RequestPathTimeoutTests {

	@Override
	protected boolean virtualThreads() {
		return true;
	}

}
