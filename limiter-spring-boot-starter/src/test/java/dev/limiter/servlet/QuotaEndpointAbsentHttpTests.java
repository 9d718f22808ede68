package dev.limiter.servlet;

import dev.limiter.test.web.HttpSupport;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/** Without {@code limiter.quota-endpoint.path} there is no quota endpoint. */
@SpringBootTest(classes = FilterTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.auth-guard.enabled=false")
class QuotaEndpointAbsentHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationContext context;

	@Test
	void quotaPathWhenUnsetShouldBeNotFound() throws Exception {
		assertThat(context.getBeansOfType(QuotaEndpointFilter.class)).isEmpty();
		assertThat(new HttpSupport(port).get("/rate-limit", "good-alice").statusCode()).isEqualTo(404);
	}

}
