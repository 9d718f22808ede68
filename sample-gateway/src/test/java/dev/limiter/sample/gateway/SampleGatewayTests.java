package dev.limiter.sample.gateway;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample gateway as its README section uses it, in front of a stand-in for
 * {@code sample-app} that counts what it received and reports a completion's tokens as
 * sample-app does: the demo token's eleventh recall in a minute is refused by the gateway
 * and never reaches the backend; a completion's report never reaches the client.
 */
@ExtendWith(BlockHoundExtension.class)
class SampleGatewayTests {

	private static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	private static final AtomicInteger received = new AtomicInteger();

	private static HttpServer backend;

	private static ConfigurableApplicationContext gateway;

	private final HttpClient http = HttpClient.newHttpClient();

	@BeforeAll
	static void startTheBackendAndTheGateway() throws Exception {
		backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
		backend.createContext("/", (exchange) -> {
			received.incrementAndGet();
			byte[] body = "{\"completion\":\"ok\",\"tokens\":42}".getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("X-Usage-Tokens", "42");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		backend.start();
		gateway = SpringApplication.run(new Class<?>[] { SampleGatewayApplication.class, OneMinute.class },
				new String[] { "--server.port=0",
						"--sample.backend=http://127.0.0.1:" + backend.getAddress().getPort() });
	}

	@AfterAll
	static void stopEverything() {
		if (gateway != null) {
			gateway.close();
		}
		if (backend != null) {
			backend.stop(0);
		}
	}

	@Test
	void recallWhenTheDemoTokenSendsElevenInAMinuteShouldRefuseTheEleventhAtTheGateway() throws Exception {
		int before = received.get();
		for (int i = 0; i < 10; i++) {
			assertThat(post("/s/recall").statusCode()).isEqualTo(200);
		}
		HttpResponse<String> refused = post("/s/recall");

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
		assertThat(refused.headers().firstValue("X-RateLimit-Limit")).hasValue("10");
		assertThat(refused.body()).contains("\"status\":429");
		assertThat(received.get() - before).as("forwarded").isEqualTo(10);
	}

	@Test
	void completionWhenTheBackendReportsTokensShouldNotShowTheReportToTheClient() throws Exception {
		HttpResponse<String> completion = post("/s/complete");

		assertThat(completion.statusCode()).isEqualTo(200);
		assertThat(completion.headers().firstValue("X-RateLimit-Limit")).isPresent();
		assertThat(completion.headers().allValues("X-Usage-Tokens")).isEmpty();
	}

	private HttpResponse<String> post(String path) throws Exception {
		int port = gateway.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("Authorization", "Bearer " + DEMO_TOKEN)
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(10))
			.POST(HttpRequest.BodyPublishers.ofString("{\"tokens\":42}"))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Every request falls in one minute: no minute boundary falls between the ten
	 * admissions and the refusal.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class OneMinute {

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME, defaultCandidate = false)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
		}

	}

}
