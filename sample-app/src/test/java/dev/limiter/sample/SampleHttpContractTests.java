package dev.limiter.sample;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The shared HTTP contract on the servlet sample, in memory. */
@SpringBootTest(classes = { SampleApplication.class, SampleHttpContract.OneMinute.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sample.expensive-delay=0ms")
class SampleHttpContractTests extends SampleHttpContract {

	@LocalServerPort
	int port;

	@Override
	protected int port() {
		return port;
	}

}
