package dev.limiter.sample;

import dev.limiter.core.RateLimitStore;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SampleAlgorithmsTests}, unchanged, with the {@code redis} profile against a real
 * redis-server: the sliding window of 5 per 10 s, the token bucket of 5 per 10 s and the
 * worked examples of {@code docs/http-contract.md} decided by {@code take.lua} over a
 * real port, byte for byte the same answers as in memory.
 */
@ActiveProfiles("redis")
@Import(SampleAlgorithmsTests.LimiterClockConfiguration.class)
@UsesRedisServer
class SampleAlgorithmsRedisTests extends SampleAlgorithmsTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	@Autowired
	private RateLimitStore store;

	@DynamicPropertySource
	static void redisServer(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", redis::port);
		registry.add("limiter.redis.key-prefix", () -> "sample-algorithms");
		// a busy machine's first script load must not send the app to its fallback
		registry.add("limiter.redis.timeout", () -> "10s");
	}

	@BeforeEach
	void decidedInRedis() {
		assertThat(store.name()).isEqualTo("redis");
	}

}
