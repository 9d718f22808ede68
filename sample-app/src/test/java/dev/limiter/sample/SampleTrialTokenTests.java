package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

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
 * Trial tokens over a real port, with the sample's own bounds: however many an address
 * mints, they share that address's anonymous counters, and the anonymous concurrency
 * bound holds for them on an expensive route. The limiter's clock stands still at the
 * 18th second of a fresh hour for each test, so no window rolls over while it runs.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "sample.expensive-delay=1500ms", "limiter.auth-guard.max-pending=50" })
class SampleTrialTokenTests {

	private static final Instant START = Instant.parse("2031-01-01T00:00:18Z");

	private static final int ANONYMOUS_MINUTE = 60;

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
	void trialTokensWhenOneAddressMintsFiveShouldShareItsAnonymousMinuteBound() throws Exception {
		List<String> tokens = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			tokens.add(mint());
		}
		int admitted = 0;
		for (String token : tokens) {
			for (int i = 0; i < 61; i++) {
				HttpResponse<String> ping = send("GET", "/public/ping", token);
				assertThat(ping.statusCode()).isIn(200, 429);
				if (ping.statusCode() == 200) {
					admitted++;
				}
			}
		}
		// the five mints were counted against the same address
		assertThat(admitted).isEqualTo(ANONYMOUS_MINUTE - 5);
		HttpResponse<String> plain = send("GET", "/public/ping", null);
		assertThat(plain.statusCode()).isEqualTo(429);
		assertThat(json.readTree(plain.body()).get("budget").asText()).isEqualTo("anonymous");
	}

	@Test
	void trialTokenWhenTwentyFiveRecallsRunAtOnceShouldHaveAtMostTwoInFlight() throws Exception {
		String token = mint();
		List<CompletableFuture<HttpResponse<String>>> recalls = new ArrayList<>();
		for (int i = 0; i < 25; i++) {
			recalls.add(http.sendAsync(request("POST", "/s/recall", token), HttpResponse.BodyHandlers.ofString()));
		}
		int admitted = 0;
		for (CompletableFuture<HttpResponse<String>> recall : recalls) {
			HttpResponse<String> response = recall.get();
			assertThat(response.statusCode()).isIn(200, 429);
			if (response.statusCode() == 200) {
				admitted++;
			}
			else {
				assertThat(json.readTree(response.body()).get("bound").asText()).isEqualTo("concurrency");
				assertThat(response.headers().firstValue("RateLimit-Policy").orElseThrow())
					.contains("\"concurrency\";q=2;qu=\"concurrent-requests\"");
			}
		}
		assertThat(admitted).isBetween(1, 2);
	}

	private String mint() throws Exception {
		HttpResponse<String> response = send("POST", "/try", null);
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body()).get("token").asText();
	}

	private HttpResponse<String> send(String method, String path, String token) throws Exception {
		return http.send(request(method, path, token), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String method, String path, String token) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, HttpRequest.BodyPublishers.noBody());
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
