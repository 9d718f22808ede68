package dev.limiter.resilience;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.guard.GuardTestApplication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Under Spring Boot's structured logging (ECS), an outage's WARN carries its facts as
 * fields: the store, the reason and the mode, beside the same human-readable message.
 */
@ExtendWith(OutputCaptureExtension.class)
class OutageStructuredLogTests {

	/**
	 * Spring Boot hands the format to Logback as a system property, which outlives the
	 * application: without this, every later application in this JVM logs JSON.
	 */
	@AfterEach
	void clearStructuredFormat() {
		System.clearProperty("CONSOLE_LOG_STRUCTURED_FORMAT");
		System.clearProperty("FILE_LOG_STRUCTURED_FORMAT");
	}

	@Test
	void outageWhenLoggedAsEcsShouldCarryStoreReasonAndModeAsFields(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext app = new SpringApplicationBuilder(GuardTestApplication.class)
			// nothing listens on port 1: every store call fails at once
			.properties("server.port=0", "limiter.store=redis", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=1", "limiter.auth-guard.enabled=false",
					"logging.structured.format.console=ecs")
			.run()) {
			int port = ((ServletWebServerApplicationContext) app).getWebServer().getPort();
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello"))
					.header("Authorization", "Bearer " + GuardTestApplication.GOOD_TOKEN)
					.timeout(Duration.ofSeconds(30))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("DEGRADED"));
			String line = output.getOut()
				.lines()
				.filter((each) -> each.startsWith("{") && each.contains("DEGRADED"))
				.findFirst()
				.orElseThrow();
			JsonNode json = new ObjectMapper().readTree(line);
			assertThat(json.get("message").asText())
				.startsWith("Rate limiter is DEGRADED: the redis store cannot answer; deciding with the in-process "
						+ "fallback, exact for this instance only, until it answers again: ");
			assertThat(json.get("store").asText()).isEqualTo("redis");
			assertThat(json.get("mode").asText()).isEqualTo("degraded");
			assertThat(json.get("reason").asText()).isNotBlank().doesNotContain(" ");
			assertThat(json.get("failure").asText()).startsWith(json.get("reason").asText());
			assertThat(line).contains("WARN");
		}
	}

}
