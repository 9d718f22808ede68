package dev.limiter.autoconfigure.refresh;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.resilience.StoreFailureTestApplication;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Cloud's {@code POST /actuator/refresh} over a real port, re-reading a
 * configuration file as a deployment's external configuration: counts follow their
 * windows' names whatever order the refreshed configuration binds them in, and the
 * limiter's verdict on each refresh (applied, or refused with start-up's message) is in
 * {@code /actuator/limiter}, since Spring Cloud's answer lists the changed keys either
 * way.
 */
class RefreshEndpointHttpTests {

	private static final String LOCATION = "spring.config.additional-location";

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ObjectMapper json = new ObjectMapper();

	@TempDir
	Path directory;

	private Path configuration;

	private ConfigurableApplicationContext app;

	private int port;

	@BeforeEach
	void startApp() throws Exception {
		configuration = directory.resolve("application.properties");
		write("budgets.paced.windows.minute.limit=5", "budgets.paced.windows.minute.duration=1m",
				"budgets.paced.windows.hour.limit=2000", "budgets.paced.windows.hour.duration=1h");
		// a system property, as a deployment sets it, so that the refresh reads it again
		System.setProperty(LOCATION, "file:" + directory + "/");
		app = new SpringApplicationBuilder(StoreFailureTestApplication.class).web(WebApplicationType.SERVLET)
			.properties("server.port=0", "limiter.anonymous-budget=paced",
					"management.endpoints.web.exposure.include=refresh,limiter",
					"limiter.routes[0].pattern=/actuator/**", "limiter.routes[0].exempt=true",
					"limiter.routes[0].reason=operations")
			.run();
		port = ((WebServerApplicationContext) app).getWebServer().getPort();
	}

	@AfterEach
	void stopApp() {
		System.clearProperty(LOCATION);
		if (app != null) {
			app.close();
		}
	}

	@Test
	void refreshWhenTheWindowsBindInAnotherOrderShouldKeepEachCountUnderItsName() throws Exception {
		for (int i = 0; i < 3; i++) {
			assertThat(send("GET", "/ping").statusCode()).isEqualTo(200);
		}
		app.getBean("limiterClock", MutableClock.class)
			.set(StoreFailureTestApplication.NOW.plus(Duration.ofMinutes(1)));
		// minute: 1 counted, hour: 4
		assertThat(send("GET", "/ping").statusCode()).isEqualTo(200);

		write("budgets.paced.windows.hour.limit=3000", "budgets.paced.windows.hour.duration=1h",
				"budgets.paced.windows.minute.limit=5", "budgets.paced.windows.minute.duration=1m");
		assertThat(send("POST", "/actuator/refresh").statusCode()).isEqualTo(200);
		JsonNode windows = limiter().path("budgets").path("paced").path("windows");
		assertThat(List.of(windows.get(0).path("name").asText(), windows.get(1).path("name").asText()))
			.as("the refreshed configuration binds the hour first")
			.containsExactly("hour", "minute");

		HttpResponse<String> fifth = send("GET", "/ping");
		assertThat(fifth.statusCode()).isEqualTo(200);
		assertThat(fifth.headers().firstValue("X-RateLimit-Limit")).hasValue("5");
		assertThat(fifth.headers().firstValue("X-RateLimit-Remaining")).as("the minute counted 2, not the hour's 5")
			.hasValue("3");
	}

	@Test
	void refreshWhenTheLimiterRefusesTheChangeShouldSaySoInTheLimiterEndpoint() throws Exception {
		assertThat(limiter().path("refresh").isNull()).as("no refresh attempted yet").isTrue();

		write("budgets.paced.windows.minute.limit=50", "budgets.paced.windows.minute.duration=1m",
				"budgets.paced.windows.hour.limit=2000", "budgets.paced.windows.hour.duration=1h",
				"max-request-body=2MB");
		assertThat(send("POST", "/actuator/refresh").statusCode()).isEqualTo(200);
		JsonNode applied = limiter().path("refresh");
		assertThat(applied.path("outcome").asText()).isEqualTo("applied");
		assertThat(applied.path("reason").isNull()).isTrue();
		assertThat(applied.path("waitingForRestart").get(0).asText()).isEqualTo("limiter.max-request-body");
		assertThat(applied.path("at").asText()).isEqualTo(StoreFailureTestApplication.NOW.toString());

		app.getBean("limiterClock", MutableClock.class)
			.set(StoreFailureTestApplication.NOW.plus(Duration.ofSeconds(7)));
		write("budgets.paced.windows.minute.limit=0", "budgets.paced.windows.minute.duration=1m",
				"budgets.paced.windows.hour.limit=2000", "budgets.paced.windows.hour.duration=1h",
				"max-request-body=2MB");
		HttpResponse<String> refused = send("POST", "/actuator/refresh");

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(refused.body()).as("Spring Cloud's answer: the keys that changed")
			.contains("limiter.budgets.paced.windows.minute.limit");
		JsonNode attempt = limiter().path("refresh");
		assertThat(attempt.path("outcome").asText()).isEqualTo("refused");
		assertThat(attempt.path("reason").asText()).isEqualTo(
				"Invalid limiter configuration: 'limiter.budgets.paced.windows.minute.limit' must be at least 1, was 0");
		assertThat(attempt.path("at").asText()).isEqualTo(Instant.parse("2030-01-01T00:00:12Z").toString());
		assertThat(limiter().path("budgets").path("paced").path("windows").get(0).path("limit").asLong())
			.as("the settings in force stayed")
			.isEqualTo(50);
	}

	private void write(String... limiterProperties) throws Exception {
		List<String> lines = new ArrayList<>();
		for (String property : limiterProperties) {
			lines.add("limiter." + property);
		}
		Files.write(configuration, lines);
	}

	private JsonNode limiter() throws Exception {
		HttpResponse<String> response = send("GET", "/actuator/limiter");
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private HttpResponse<String> send(String method, String path) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
