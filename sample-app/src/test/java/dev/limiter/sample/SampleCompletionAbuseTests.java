package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code POST /s/complete} does with callers and bodies that try to spend tokens the
 * budget does not count: a trial token is held to the {@code trial-completion} tokens
 * window, and a body that is no completion request is a {@code 400} problem whose
 * reservation is released. Each test starts a fresh hour on the limiter's clock.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SampleCompletionAbuseTests {

	private static final Instant START = Instant.parse("2032-01-01T00:00:01Z");

	private static final AtomicLong hours = new AtomicLong();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	@BeforeEach
	void freshHour() {
		clock.set(START.plusSeconds(3600 * hours.incrementAndGet()));
	}

	@Test
	void trialTokenWhenItReportsHugeCompletionsShouldBeRefusedByTheTrialTokensWindow() throws Exception {
		String trial = mint();
		int admitted = 0;
		for (int i = 0; i < 10; i++) {
			HttpResponse<String> response = complete(trial, "{\"tokens\":1000000000}");
			assertThat(response.statusCode()).isIn(200, 429);
			if (response.statusCode() == 200) {
				admitted++;
			}
			else {
				JsonNode problem = json.readTree(response.body());
				assertThat(problem.get("budget").asText()).isEqualTo("trial-completion");
				assertThat(problem.get("bound").asText()).isEqualTo("tokens");
			}
		}
		// the first reports 10^9 and takes the window deep into debt; a second may have
		// reserved before that settlement landed
		assertThat(admitted).isBetween(1, 2);
	}

	@Test
	void completionWhenTheBodyRepeatsTokensShouldAnswer400AndReleaseTheEstimate() throws Exception {
		HttpResponse<String> response = complete("sp_DEMO0000000000000000000000000001",
				"{\"tokens\":100,\"tokens\":5000}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(json.readTree(response.body()).get("status").asInt()).isEqualTo(400);
		assertThat(demoTokensRemainingOnceSettled(2000)).as("the 100 reserved, released").isEqualTo(2000);
	}

	@Test
	void completionWhenTheBodyIsNotJsonShouldAnswer400AndReleaseTheEstimate() throws Exception {
		HttpResponse<String> response = complete("sp_DEMO0000000000000000000000000001", "{\"tokens\":");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(demoTokensRemainingOnceSettled(2000)).as("the 100 reserved, released").isEqualTo(2000);
	}

	@Test
	void completionWhenTheTokensAreNegativeShouldAnswer400AndReleaseTheEstimate() throws Exception {
		HttpResponse<String> response = complete("sp_DEMO0000000000000000000000000001", "{\"tokens\":-1}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(demoTokensRemainingOnceSettled(2000)).as("the 100 reserved, released").isEqualTo(2000);
	}

	/**
	 * What the demo token has left in the {@code completion} budget's tokens window, read
	 * without counting; read again (up to 5 s) while it differs from {@code expected},
	 * since the settlement lands when the request ends, which may be after its response.
	 */
	private long demoTokensRemainingOnceSettled(long expected) throws Exception {
		String key = key("sp_DEMO0000000000000000000000000001");
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		long remaining;
		do {
			HttpResponse<String> read = http.send(request("/actuator/limiter/keys/" + key + "?budget=completion",
					"sp_DEMO0000000000000000000000000001", null), HttpResponse.BodyHandlers.ofString());
			assertThat(read.statusCode()).isEqualTo(200);
			remaining = tokensRemaining(json.readTree(read.body()), read.body());
			if (remaining == expected) {
				return remaining;
			}
			Thread.sleep(20);
		}
		while (System.nanoTime() < deadline);
		return remaining;
	}

	private static long tokensRemaining(JsonNode node, String body) {
		JsonNode tokens = node.findParents("name")
			.stream()
			.filter((candidate) -> candidate.get("name").asText().equals("tokens") && candidate.has("remaining"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no tokens window in " + body));
		return tokens.get("remaining").asLong();
	}

	private static String key(String token) throws Exception {
		byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
		return "t:" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
	}

	private String mint() throws Exception {
		HttpResponse<String> response = http.send(request("/try", null, ""), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body()).get("token").asText();
	}

	private HttpResponse<String> complete(String token, String body) throws Exception {
		return http.send(request("/s/complete", token, body), HttpResponse.BodyHandlers.ofString());
	}

	/** A GET without a body, else a POST of the JSON body. */
	private HttpRequest request(String path, String token, String body) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30));
		if (body == null) {
			builder.GET();
		}
		else {
			builder.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
		}
		if (token != null) {
			builder.header("Authorization", "Bearer " + token);
		}
		return builder.build();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class LimiterClockConfiguration {

		@Bean(name = "limiterClock")
		MutableClock limiterClock() {
			return new MutableClock(START);
		}

	}

}
