package dev.limiter.autoconfigure.actuate;

import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RoutesHttpTest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Same context as {@link LimiterMetersTests}: the application exposes no limiter
 * endpoint.
 */
@RoutesHttpTest
class LimiterEndpointNotExposedTests {

	@LocalServerPort
	private int port;

	@Test
	void endpointWhenNotExposedShouldNotBeServed() throws Exception {
		HttpSupport http = new HttpSupport(port);
		assertThat(http.get("/actuator/limiter", null).statusCode()).isEqualTo(404);
		assertThat(http.get("/actuator/limiter/keys/a:127.0.0.1", null).statusCode()).isEqualTo(404);
		assertThat(http.send("DELETE", "/actuator/limiter/keys/a:127.0.0.1", null).statusCode()).isEqualTo(404);
	}

}
