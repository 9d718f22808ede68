package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;

import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sliding window and the token bucket over a real port, on the limiter's clock: the
 * {@code standard} budget gains a sliding window of 5 per 10 s ({@code tens}) beside its
 * fixed minute and hour, and the {@code anonymous} budget a token bucket of 5 per 10 s
 * ({@code burst}); the fixed minute of {@code standard} is cut to 7 so that it refuses
 * too. The worked examples of {@code docs/http-contract.md} are checked against the
 * responses they show. Each test starts at its own hour, later than the one before (the
 * tests run in order), so no count of one test is seen by another.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.budgets.standard.windows.minute.limit=7",
				"limiter.budgets.standard.windows.tens.limit=5", "limiter.budgets.standard.windows.tens.duration=10s",
				"limiter.budgets.standard.windows.tens.algorithm=sliding-window",
				"limiter.budgets.anonymous.windows.burst.limit=5",
				"limiter.budgets.anonymous.windows.burst.duration=10s",
				"limiter.budgets.anonymous.windows.burst.algorithm=token-bucket", "sample.expensive-delay=0ms" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SampleAlgorithmsTests {

	static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	/** On a 10 s boundary, so that the times below read as offsets into a window. */
	static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	@Test
	@Order(1)
	void slidingWindowWhenFullAtNineSecondsShouldStillRefuseAtElevenAndAdmitOnceTheAdmissionsAgeOut() throws Exception {
		// 50 s into the hour: the fixed minute starts afresh at the same moment a fixed
		// window of 10 s would.
		Instant start = START.plusSeconds(3600 + 50);
		at(start.plusMillis(9_500));
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> admitted = send("POST", "/s/recall", DEMO_TOKEN);
			assertThat(admitted.statusCode()).as("request %d", i + 1).isEqualTo(200);
			assertThat(header(admitted, "X-RateLimit-Remaining")).isEqualTo(Integer.toString(4 - i));
		}

		// A fixed window of 10 s would have reset at 10 s.
		at(start.plusSeconds(11));
		HttpResponse<String> refused = send("POST", "/s/recall", DEMO_TOKEN);
		assertThat(refused.statusCode()).isEqualTo(429);
		// A log of every admission ages them out at 19.5 s: 8.5 s, rounded up.
		assertThat(header(refused, "Retry-After")).isEqualTo("9");
		assertThat(header(refused, "RateLimit")).isEqualTo("\"tens\";r=0;t=9");

		at(start.plusMillis(19_999));
		HttpResponse<String> stillRefused = send("POST", "/s/recall", DEMO_TOKEN);
		assertThat(stillRefused.statusCode()).isEqualTo(429);
		assertThat(header(stillRefused, "Retry-After")).isEqualTo("1");

		at(start.plusSeconds(20));
		HttpResponse<String> aged = send("POST", "/s/recall", DEMO_TOKEN);
		assertThat(aged.statusCode()).isEqualTo(200);
		assertThat(header(aged, "X-RateLimit-Remaining")).isEqualTo("4");
	}

	@Test
	@Order(2)
	void tokenBucketWhenEmptiedAtOnceShouldRefuseTheSixthForTwoSecondsThenAdmit() throws Exception {
		Instant start = START.plusSeconds(2 * 3600);
		at(start);
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> admitted = send("GET", "/public/ping", null);
			assertThat(admitted.statusCode()).as("request %d", i + 1).isEqualTo(200);
			assertThat(header(admitted, "X-RateLimit-Remaining")).isEqualTo(Integer.toString(4 - i));
		}

		HttpResponse<String> sixth = send("GET", "/public/ping", null);
		assertThat(sixth.statusCode()).isEqualTo(429);
		assertThat(header(sixth, "Retry-After")).isEqualTo("2");

		at(start.plusMillis(1_999));
		assertThat(send("GET", "/public/ping", null).statusCode()).isEqualTo(429);
		at(start.plusSeconds(2));
		HttpResponse<String> refilled = send("GET", "/public/ping", null);
		assertThat(refilled.statusCode()).isEqualTo(200);
		assertThat(header(refilled, "X-RateLimit-Remaining")).isEqualTo("0");
	}

	@Test
	@Order(3)
	void httpContractWhenShowingASlidingWindowRefusalShouldBeWhatTheAppAnswers() throws Exception {
		Instant start = START.plusSeconds(3 * 3600);
		at(start.plusMillis(9_500));
		for (int i = 0; i < 5; i++) {
			assertThat(send("POST", "/s/recall", DEMO_TOKEN).statusCode()).isEqualTo(200);
		}
		at(start.plusSeconds(11));

		HttpContractExamples.assertShows("sliding-window-refused", send("POST", "/s/recall", DEMO_TOKEN));
	}

	@Test
	@Order(4)
	void httpContractWhenShowingATokenBucketRefusalShouldBeWhatTheAppAnswers() throws Exception {
		Instant start = START.plusSeconds(4 * 3600);
		at(start);
		for (int i = 0; i < 5; i++) {
			assertThat(send("GET", "/public/ping", null).statusCode()).isEqualTo(200);
		}
		at(start.plusMillis(500));

		HttpContractExamples.assertShows("token-bucket-refused", send("GET", "/public/ping", null));
	}

	@Test
	@Order(5)
	void httpContractWhenShowingAFixedWindowRefusalInAMixedBudgetShouldBeWhatTheAppAnswers() throws Exception {
		Instant start = START.plusSeconds(5 * 3600);
		at(start.plusSeconds(1));
		for (int i = 0; i < 5; i++) {
			assertThat(send("POST", "/s/recall", DEMO_TOKEN).statusCode()).isEqualTo(200);
		}
		at(start.plusSeconds(20));
		for (int i = 0; i < 2; i++) {
			assertThat(send("POST", "/s/recall", DEMO_TOKEN).statusCode()).isEqualTo(200);
		}

		HttpContractExamples.assertShows("fixed-window-refused", send("POST", "/s/recall", DEMO_TOKEN));
	}

	void at(Instant instant) {
		clock.set(instant);
	}

	HttpResponse<String> send(String method, String path, String token) throws Exception {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (token != null) {
			builder.header("Authorization", "Bearer " + token);
		}
		return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
	}

	static String header(HttpResponse<?> response, String name) {
		return response.headers()
			.firstValue(name)
			.orElseThrow(() -> new AssertionError("no header " + name + " in " + response.headers().map()));
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class LimiterClockConfiguration {

		@Bean(name = "limiterClock")
		MutableClock limiterClock() {
			return new MutableClock(START);
		}

	}

}
