package dev.limiter.redis;

import java.time.Duration;

/**
 * Store-level tests check what the store decides, not how fast: a cold JVM on a busy
 * two-core machine can take more than the production timeout to bootstrap Lettuce. The
 * timeout itself is tested in StoreFailureTests.
 */
final class RedisTestTimeouts {

	static final Duration GENEROUS = Duration.ofSeconds(10);

	private RedisTestTimeouts() {
	}

}
