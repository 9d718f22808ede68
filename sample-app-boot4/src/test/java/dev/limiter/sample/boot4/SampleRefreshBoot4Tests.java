package dev.limiter.sample.boot4;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import dev.limiter.sample.SampleApplication;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A limit changed in the external configuration and re-read by an operator's
 * {@code POST /actuator/refresh}, over a real port: no restart, the count carried over,
 * an invalid change refused. The external configuration is a file in
 * {@code spring.config.additional-location} (a system property, as a deployment would set
 * it, so that the refresh reads it again). The unchanged sample on Boot 4, Spring Cloud
 * 2025.1.
 */
@SpringBootTest(classes = { SampleApplication.class, SampleRefreshBoot4Tests.LimiterClockConfiguration.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "sample.expensive-delay=0ms", "limiter.budgets.standard.windows.hour.limit=1000" })
@ExtendWith(OutputCaptureExtension.class)
class SampleRefreshBoot4Tests {

	private static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	private static final String LOCATION = "spring.config.additional-location";

	private static final Path CONFIG = externalConfiguration();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	private static Path externalConfiguration() {
		try {
			Path directory = Files.createTempDirectory("limiter-refresh");
			Path file = directory.resolve("application.properties");
			Files.writeString(file, "limiter.budgets.standard.windows.minute.limit=5\n");
			System.setProperty(LOCATION, "file:" + directory + "/");
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@AfterAll
	static void forgetExternalConfiguration() {
		System.clearProperty(LOCATION);
	}

	@Test
	void refreshWhenTheLimitIsRaisedAndThenMadeInvalidShouldApplyTheFirstAndRefuseTheSecond(CapturedOutput output)
			throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.");
		for (int i = 0; i < 5; i++) {
			assertThat(send("POST", "/s/recall").statusCode()).isEqualTo(200);
		}
		HttpResponse<String> sixth = send("POST", "/s/recall");
		assertThat(sixth.statusCode()).isEqualTo(429);
		assertThat(sixth.headers().firstValue("X-RateLimit-Limit")).hasValue("5");

		Files.writeString(CONFIG, "limiter.budgets.standard.windows.minute.limit=50\n");
		HttpResponse<String> refreshed = send("POST", "/actuator/refresh");
		assertThat(refreshed.statusCode()).isEqualTo(200);
		assertThat(refreshed.body()).contains("limiter.budgets.standard.windows.minute.limit");
		HttpResponse<String> seventh = send("POST", "/s/recall");
		assertThat(seventh.statusCode()).isEqualTo(200);
		assertThat(seventh.headers().firstValue("X-RateLimit-Limit")).hasValue("50");
		assertThat(seventh.headers().firstValue("X-RateLimit-Remaining")).hasValue("44");
		// the operations endpoint shows the budgets in force
		assertThat(send("GET", "/actuator/limiter").body()).contains("\"limit\":50").doesNotContain("\"limit\":5,");

		Files.writeString(CONFIG, "limiter.budgets.standard.windows.minute.limit=0\n");
		HttpResponse<String> refusedRefresh = send("POST", "/actuator/refresh");
		assertThat(refusedRefresh.statusCode()).isLessThan(500);
		HttpResponse<String> eighth = send("POST", "/s/recall");
		assertThat(eighth.statusCode()).isEqualTo(200);
		assertThat(eighth.headers().firstValue("X-RateLimit-Limit")).hasValue("50");
		String warning = "Limiter configuration not refreshed, the settings in force stay: Invalid limiter "
				+ "configuration: 'limiter.budgets.standard.windows.minute.limit' must be at least 1, was 0";
		assertThat(output.getAll().split(java.util.regex.Pattern.quote(warning), -1)).hasSize(2);
		assertThat(output.getAll()).containsPattern("WARN .*" + java.util.regex.Pattern.quote(warning));
	}

	@Test
	void refreshWhenCalledWithoutAnOperatorTokenShouldBeRefused() throws Exception {
		HttpResponse<String> anonymous = http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/refresh"))
				.POST(HttpRequest.BodyPublishers.noBody())
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(anonymous.statusCode()).isEqualTo(401);
	}

	private HttpResponse<String> send(String method, String path) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.header("Authorization", "Bearer " + DEMO_TOKEN)
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class LimiterClockConfiguration {

		@Bean(name = "limiterClock")
		MutableClock limiterClock() {
			return new MutableClock(Instant.parse("2030-07-01T00:00:18Z"));
		}

	}

}
