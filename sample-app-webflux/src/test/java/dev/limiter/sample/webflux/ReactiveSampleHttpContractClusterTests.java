package dev.limiter.sample.webflux;

import dev.limiter.sample.SampleApplication;
import dev.limiter.sample.SampleHttpContract;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisClusterProcesses;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The shared HTTP contract on the WebFlux sample, counting in a real Redis Cluster (three
 * masters) through Lettuce's cluster client, under BlockHound.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = { SampleApplication.class, SampleHttpContract.OneMinute.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sample.expensive-delay=0ms")
@ActiveProfiles("redis")
@UsesRedisServer
class ReactiveSampleHttpContractClusterTests extends SampleHttpContract {

	private static RedisClusterProcesses cluster;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void clusterNodes(DynamicPropertyRegistry registry) {
		// started here, before the context that reads its addresses
		cluster = RedisClusterProcesses.start();
		registry.add("spring.data.redis.cluster.nodes", () -> String.join(",", cluster.addresses()));
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Override
	protected int port() {
		return port;
	}

}
