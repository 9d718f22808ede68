package dev.limiter.sample.webflux;

import java.time.Duration;

import dev.limiter.sample.SampleApplication;
import dev.limiter.sample.SampleHttpContract;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared HTTP contract on the WebFlux sample, counting in a real Redis master found
 * through a real Sentinel ({@code spring.data.redis.sentinel.*}), under BlockHound.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = { SampleApplication.class, SampleHttpContract.OneMinute.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sample.expensive-delay=0ms")
@ActiveProfiles("redis")
@UsesRedisServer
class ReactiveSampleHttpContractSentinelTests extends SampleHttpContract {

	private static final String MASTER_NAME = "limiter-master";

	private static RedisServerProcess master;

	private static RedisServerProcess sentinel;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void sentinelNodes(DynamicPropertyRegistry registry) throws InterruptedException {
		// started here, before the context that reads their addresses
		master = RedisServerProcess.start();
		sentinel = RedisServerProcess.startSentinel(MASTER_NAME, master.port());
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (sentinel.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME) == null) {
			assertThat(System.nanoTime()).as("Sentinel knows the master").isLessThan(deadline);
			Thread.sleep(50);
		}
		registry.add("spring.data.redis.sentinel.master", () -> MASTER_NAME);
		registry.add("spring.data.redis.sentinel.nodes", sentinel::address);
	}

	@AfterAll
	static void stopRedis() {
		if (sentinel != null) {
			sentinel.close();
		}
		if (master != null) {
			master.close();
		}
	}

	@Override
	protected int port() {
		return port;
	}

}
