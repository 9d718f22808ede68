package demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsumerApplicationTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Test
	void pingWhenAnonymousBudgetIsSpentShouldBeRefusedWith429() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(get("/ping").statusCode()).isEqualTo(200);
		assertThat(get("/ping").statusCode()).isEqualTo(200);
		HttpResponse<String> refused = get("/ping");
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
		assertThat(refused.headers().firstValue("X-RateLimit-Limit")).hasValue("2");
		assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
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
