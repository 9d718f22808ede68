package demo;

import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application over a real port, as its users and a browser on another origin reach
 * it (through {@link ApiClient}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsumerApplicationTests {

	@LocalServerPort
	int port;

	@Test
	void ordersWhenAliceSpentHerBudgetShouldBeRefusedWith429AndTheLimiterHeadersWhileBobIsServed() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.0.");
		for (int remaining = 2; remaining >= 0; remaining--) {
			HttpResponse<String> admitted = client().send("/orders", ApiClient.ALICE, null);
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(admitted.body()).contains("\"owner\":\"alice\"");
			assertThat(admitted.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
			assertThat(admitted.headers().firstValue("X-RateLimit-Remaining")).hasValue(String.valueOf(remaining));
		}
		HttpResponse<String> refused = client().send("/orders", ApiClient.ALICE, ApiClient.ORIGIN);
		assertThat(refused.statusCode()).isEqualTo(429);
		// readable by a browser on the allowed origin: the controller's @CrossOrigin applies to the 429 too
		assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).hasValue(ApiClient.ORIGIN);
		assertThat(refused.headers().allValues("Access-Control-Expose-Headers")).anySatisfy(
				(exposed) -> assertThat(exposed).contains("Retry-After").contains("X-RateLimit-Remaining"));
		assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
				(seconds) -> assertThat(Integer.parseInt(seconds)).isBetween(1, 60));
		assertThat(refused.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
		assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(refused.body()).contains("\"status\":429").contains("\"budget\":\"standard\"");
		assertThat(client().send("/orders", ApiClient.BOB, null).statusCode()).isEqualTo(200);
	}

	@Test
	void ordersWhenCrossOriginShouldBeServedWithTheOriginAllowed() throws Exception {
		HttpResponse<String> response = client().send("/orders", ApiClient.BOB, ApiClient.ORIGIN);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Access-Control-Allow-Origin")).hasValue(ApiClient.ORIGIN);
		assertThat(response.headers().allValues("Access-Control-Expose-Headers")).anySatisfy(
				(exposed) -> assertThat(exposed).contains("X-RateLimit-Remaining"));
	}

	@Test
	void ordersWhenNoCredentialsShouldBeUnauthorized() throws Exception {
		assertThat(client().send("/orders", null, null).statusCode()).isEqualTo(401);
	}

	private ApiClient client() {
		return new ApiClient(this.port);
	}

	/**
	 * The limiter's time (its {@code limiterClock}) stands still mid-minute: no minute boundary falls between
	 * the calls, so the counts they see are exact.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class OneMinute {

		@Bean(name = "limiterClock", defaultCandidate = false)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
		}

	}

}
