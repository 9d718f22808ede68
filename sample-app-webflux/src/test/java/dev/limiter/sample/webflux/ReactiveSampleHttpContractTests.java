package dev.limiter.sample.webflux;

import dev.limiter.sample.SampleApplication;
import dev.limiter.sample.SampleHttpContract;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The shared HTTP contract on the WebFlux sample, in memory. */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = { SampleApplication.class, SampleHttpContract.OneMinute.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sample.expensive-delay=0ms")
class ReactiveSampleHttpContractTests extends SampleHttpContract {

	@LocalServerPort
	int port;

	@Override
	protected int port() {
		return port;
	}

}
