package dev.limiter.sample.webflux;

import dev.limiter.sample.SampleApplication;
import dev.limiter.sample.SampleHttpContract;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The shared HTTP contract on the WebFlux sample, counting in a real redis-server. */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = { SampleApplication.class, SampleHttpContract.OneMinute.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sample.expensive-delay=0ms")
@ActiveProfiles("redis")
@UsesRedisServer
class ReactiveSampleHttpContractRedisTests extends SampleHttpContract {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void redisPort(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.port", redis::port);
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
	}

	@Override
	protected int port() {
		return port;
	}

}
