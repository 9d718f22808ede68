package dev.limiter.sample.boot4;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.limiter.sample.SampleApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's anonymous curl loop against the unchanged sample on Boot 4, with a small
 * anonymous minute.
 */
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.budgets.anonymous.windows.minute.limit=4")
class SampleApplicationBoot4Tests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void publicPingWhenOverTheAnonymousMinuteOnBoot4ShouldBeRefusedLikeTheReadmeSays() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.");
		HttpResponse<String> response = get("/public/ping");
		assertThat(response.statusCode()).isEqualTo(200);
		// At most one minute boundary can fall inside the loop, so 4 + 4 + 1 calls always
		// reach a refusal.
		for (int i = 0; i < 8 && response.statusCode() != 429; i++) {
			response = get("/public/ping");
		}

		assertThat(response.statusCode()).isEqualTo(429);
		assertThat(response.headers().firstValue("Retry-After")).isPresent();
		assertThat(response.headers().firstValue("X-RateLimit-Limit")).hasValue("4");
		assertThat(response.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
	}

	private HttpResponse<String> get(String path) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
