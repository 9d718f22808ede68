package dev.limiter.autoconfigure.actuate;

import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RoutesTestApplication;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Same context as {@link LimiterMetersTests}: the application exposes no limiter
 * endpoint.
 */
@SpringBootTest(classes = RoutesTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = {
				// The auth guard counts in the same store; these tests assert on the
				// limiter's own keys.
				"limiter.auth-guard.enabled=false", RoutesTestApplication.TIGHT, RoutesTestApplication.TIGHT_DURATION,
				RoutesTestApplication.LOOSE, RoutesTestApplication.LOOSE_DURATION, RoutesTestApplication.PER_ROUTE,
				RoutesTestApplication.PER_ROUTE_DURATION, })
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
