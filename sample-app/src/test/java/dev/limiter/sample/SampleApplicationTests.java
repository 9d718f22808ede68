package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.servlet.DefaultRateLimitResponseWriter;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app over a real port. Bounds are made small through properties; the
 * limiter's clock is moved to the 18th second of a fresh hour before each test, so every
 * test starts with empty windows and 42 s left in the minute.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.budgets.standard.windows.minute.limit=5",
				"limiter.budgets.anonymous.windows.minute.limit=4", "sample.expensive-delay=0ms",
				"logging.level.dev.limiter=DEBUG", "logging.level.org.springframework.security=DEBUG", })
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationTests {

	private static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	private static final Instant START = Instant.parse("2030-01-01T00:00:18Z");

	private final HttpClient http = HttpClient.newHttpClient();

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	private static final AtomicLong hours = new AtomicLong();

	@BeforeEach
	void freshHour() {
		clock.set(START.plusSeconds(3600 * hours.incrementAndGet()));
	}

	@Test
	void budgetWhenSpentShouldAnswer429WithRetryAfterHeadersProblemBodyAndNoStore() throws Exception {
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> admitted = send("POST", "/s/recall", DEMO_TOKEN);
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(header(admitted, "X-RateLimit-Limit")).isEqualTo("5");
			assertThat(header(admitted, "X-RateLimit-Remaining")).isEqualTo(Integer.toString(4 - i));
		}
		HttpResponse<String> refused = send("POST", "/s/recall", DEMO_TOKEN);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(header(refused, "Retry-After")).isEqualTo("42");
		assertThat(header(refused, "Cache-Control")).isEqualTo("no-store");
		assertThat(header(refused, "CDN-Cache-Control")).isEqualTo("no-store");
		assertThat(header(refused, "Content-Type")).startsWith("application/problem+json");
		assertThat(header(refused, "X-RateLimit-Limit")).isEqualTo("5");
		assertThat(header(refused, "X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(header(refused, "X-RateLimit-Reset"))
			.isEqualTo(Long.toString(clock.instant().getEpochSecond() + 42));
		assertThat(header(refused, "X-RateLimit-Window")).isEqualTo("60");
		assertThat(header(refused, "RateLimit")).isEqualTo("\"minute\";r=0;t=42");
		// /s/recall is expensive: the concurrency bound is advertised as its own policy
		assertThat(header(refused, "RateLimit-Policy"))
			.isEqualTo("\"minute\";q=5;w=60, \"hour\";q=36000;w=3600, \"concurrency\";q=10;qu=\"concurrent-requests\"");
		JsonNode body = json.readTree(refused.body());
		// headers=both: the IETF fields are on, so the draft's quota-exceeded problem
		// type
		assertThat(body.get("type").asText()).isEqualTo(DefaultRateLimitResponseWriter.QUOTA_EXCEEDED_TYPE);
		assertThat(body.get("title").asText()).isEqualTo("Too Many Requests");
		assertThat(body.get("status").asInt()).isEqualTo(429);
		assertThat(body.get("error").asText()).isEqualTo("rate_limit_exceeded");
		assertThat(body.get("detail").asText()).isEqualTo(body.get("message").asText()).contains("standard");
		assertThat(body.get("retryAfter").asLong()).isEqualTo(42);
		assertThat(body.get("limit").asLong()).isEqualTo(5);
		assertThat(body.get("remaining").asLong()).isZero();
		assertThat(Instant.parse(body.get("resetTime").asText())).isEqualTo(clock.instant().plusSeconds(42));
		assertThat(body.get("budget").asText()).isEqualTo("standard");
		assertThat(body.get("bound").asText()).isEqualTo("minute");
	}

	@Test
	void rateLimitWhenReadShouldShowWhatTheNextCountedRequestSees() throws Exception {
		HttpResponse<String> quota = send("GET", "/rate-limit", DEMO_TOKEN);
		assertThat(quota.statusCode()).isEqualTo(200);
		assertThat(header(quota, "Cache-Control")).isEqualTo("no-store");
		JsonNode budgets = json.readTree(quota.body()).get("budgets");
		assertThat(budgets.findValuesAsText("budget")).contains("standard", "completion");
		JsonNode standardMinute = budgets.get(0).get("bounds").get(0);
		assertThat(budgets.get(0).get("budget").asText()).isEqualTo("standard");
		assertThat(standardMinute.get("name").asText()).isEqualTo("minute");
		HttpResponse<String> counted = send("POST", "/s/recall", DEMO_TOKEN);
		assertThat(standardMinute.get("remaining").asLong())
			.isEqualTo(Long.parseLong(header(counted, "X-RateLimit-Remaining")) + 1);
		assertThat(send("GET", "/rate-limit", null).statusCode()).isEqualTo(401);
	}

	@Test
	void publicPingWhenAnonymousShouldBeBoundByTheAnonymousBudget() throws Exception {
		for (int i = 0; i < 4; i++) {
			HttpResponse<String> admitted = send("GET", "/public/ping", null);
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(header(admitted, "X-RateLimit-Limit")).isEqualTo("4");
		}
		HttpResponse<String> refused = send("GET", "/public/ping", null);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(json.readTree(refused.body()).get("budget").asText()).isEqualTo("anonymous");
	}

	@Test
	void trialTokenWhenMintedShouldGetTheAnonymousBound() throws Exception {
		String token = mint();
		assertThat(token).matches("sp_[0-9A-Za-z]{32}");
		// The token is counted as the address that minted it: the mint took one of its
		// four.
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> admitted = send("POST", "/s/remember", token);
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(header(admitted, "X-RateLimit-Limit")).isEqualTo("4");
		}
		HttpResponse<String> refused = send("POST", "/s/remember", token);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(json.readTree(refused.body()).get("budget").asText()).isEqualTo("anonymous");
		// The demo token is counted apart and keeps the standard bound.
		assertThat(header(send("POST", "/s/remember", DEMO_TOKEN), "X-RateLimit-Limit")).isEqualTo("5");
	}

	@Test
	void routeWhenCacheableShouldCarryNoPerCallerCounters() throws Exception {
		HttpResponse<String> response = send("GET", "/s/agents.md", DEMO_TOKEN);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(header(response, "Cache-Control")).isEqualTo("max-age=60, public");
		assertThat(response.headers().map().keySet()).noneMatch(name -> name.toLowerCase().contains("ratelimit"));
		assertThat(response.body()).contains("agents.md");
	}

	@Test
	void tokenWhenInvalidOrMissingShouldGet401NotAServerError() throws Exception {
		assertThat(send("POST", "/s/recall", "sp_" + "x".repeat(32)).statusCode()).isEqualTo(401);
		assertThat(send("POST", "/s/recall", "not-a-token").statusCode()).isEqualTo(401);
		HttpResponse<String> missing = send("POST", "/s/recall", null);
		assertThat(missing.statusCode()).isEqualTo(401);
		assertThat(header(missing, "WWW-Authenticate")).startsWith("Bearer");
	}

	@Test
	void healthWhenRedisIsAbsentShouldBeUpAndExemptFromTheLimiter() throws Exception {
		HttpResponse<String> health = send("GET", "/actuator/health", null);
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(json.readTree(health.body()).get("status").asText()).isEqualTo("UP");
		assertThat(health.headers().firstValue("X-RateLimit-Limit")).isEmpty();
	}

	@Test
	void refusalWhenTracedShouldBeLoggedWithItsTraceId(CapturedOutput output) throws Exception {
		for (int i = 0; i < 4; i++) {
			assertThat(send("GET", "/public/ping", null).statusCode()).isEqualTo(200);
		}
		assertThat(send("GET", "/public/ping", null).statusCode()).isEqualTo(429);
		String line = output.getOut()
			.lines()
			.filter((each) -> each.contains("Refused anonymous on /public/ping: window minute spent, Retry-After 42 s"))
			.reduce((first, last) -> last)
			.orElseThrow();
		// Boot's log pattern carries the trace id (128 bits, hex) once a tracing bridge
		// is
		// there
		assertThat(line).containsPattern("[0-9a-f]{32}");
	}

	@Test
	void rawTokensWhenUsedShouldAppearInNoResponseHeaderAndNoLogLine(CapturedOutput output) throws Exception {
		String minted = mint();
		String unknown = "sp_" + "Q".repeat(32);
		List<HttpResponse<String>> responses = new java.util.ArrayList<>();
		for (int i = 0; i < 6; i++) {
			responses.add(send("POST", "/s/recall", DEMO_TOKEN));
			responses.add(send("POST", "/s/remember", minted));
		}
		responses.add(send("GET", "/s/agents.md", minted));
		responses.add(send("POST", "/s/recall", unknown));
		assertThat(responses).extracting(HttpResponse::statusCode).contains(200, 429, 401);
		for (HttpResponse<String> response : responses) {
			for (Map.Entry<String, List<String>> header : response.headers().map().entrySet()) {
				assertThat(header.getValue()).noneMatch(
						value -> value.contains(DEMO_TOKEN) || value.contains(minted) || value.contains(unknown));
			}
		}
		assertThat(output.getAll()).contains("Limiter counting in store 'memory'")
			.doesNotContain(DEMO_TOKEN)
			.doesNotContain(minted)
			.doesNotContain(unknown);
	}

	@Test
	void trialTokenWhenReadingTheLimiterEndpointShouldGet403() throws Exception {
		String trial = mint();
		for (String path : List.of("/actuator/limiter", "/actuator/metrics", "/actuator/metrics/limiter.requests")) {
			HttpResponse<String> forbidden = send("GET", path, trial);
			assertThat(forbidden.statusCode()).as(path).isEqualTo(403);
			assertThat(header(forbidden, "Content-Type")).startsWith("application/problem+json");
			assertThat(header(forbidden, "Cache-Control")).isEqualTo("no-store");
			assertThat(json.readTree(forbidden.body()).get("status").asInt()).isEqualTo(403);
		}
		HttpResponse<String> anonymous = send("GET", "/actuator/limiter", null);
		assertThat(anonymous.statusCode()).isEqualTo(401);
		assertThat(header(anonymous, "Cache-Control")).isEqualTo("no-store");
		assertThat(send("GET", "/actuator/health", null).statusCode()).isEqualTo(200);
	}

	@Test
	void trialTokenWhenResettingItsOwnKeyShouldGet403() throws Exception {
		String trial = mint();
		// counted as the minting address: the mint took one of its four
		for (int i = 0; i < 3; i++) {
			assertThat(send("POST", "/s/remember", trial).statusCode()).isEqualTo(200);
		}
		assertThat(send("POST", "/s/remember", trial).statusCode()).isEqualTo(429);

		HttpResponse<String> reset = send("DELETE", "/actuator/limiter/keys/" + key(trial) + "?budget=anonymous",
				trial);

		assertThat(reset.statusCode()).isEqualTo(403);
		assertThat(header(reset, "Content-Type")).startsWith("application/problem+json");
		assertThat(header(reset, "Cache-Control")).isEqualTo("no-store");
		assertThat(send("POST", "/s/remember", trial).statusCode()).isEqualTo(429);
	}

	@Test
	void demoTokenWhenOnTheOperationsSurfaceShouldReadAndResetKeys() throws Exception {
		for (int i = 0; i < 5; i++) {
			assertThat(send("POST", "/s/remember", DEMO_TOKEN).statusCode()).isEqualTo(200);
		}
		assertThat(send("POST", "/s/remember", DEMO_TOKEN).statusCode()).isEqualTo(429);
		assertThat(send("GET", "/actuator/limiter", DEMO_TOKEN).statusCode()).isEqualTo(200);
		assertThat(
				send("GET", "/actuator/limiter/keys/" + key(DEMO_TOKEN) + "?budget=standard", DEMO_TOKEN).statusCode())
			.isEqualTo(200);

		HttpResponse<String> reset = send("DELETE", "/actuator/limiter/keys/" + key(DEMO_TOKEN) + "?budget=standard",
				DEMO_TOKEN);

		assertThat(reset.statusCode()).isEqualTo(200);
		assertThat(send("POST", "/s/remember", DEMO_TOKEN).statusCode()).isEqualTo(200);
	}

	@Test
	void healthWhenReadWithTheOperatorTokenShouldShowTheLimiterComponentsDetails() throws Exception {
		HttpResponse<String> operator = send("GET", "/actuator/health", DEMO_TOKEN);
		HttpResponse<String> anonymous = send("GET", "/actuator/health", null);

		assertThat(operator.statusCode()).isEqualTo(200);
		JsonNode limiter = json.readTree(operator.body()).path("components").path("limiter");
		assertThat(limiter.path("status").asText()).isEqualTo("UP");
		assertThat(limiter.path("details").has("store")).as(operator.body()).isTrue();
		assertThat(anonymous.statusCode()).isEqualTo(200);
		assertThat(json.readTree(anonymous.body()).has("components")).as(anonymous.body()).isFalse();
	}

	/** The counter key of a token, computed as the README's one-liner does. */
	private static String key(String token) throws Exception {
		byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
			.digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8));
		return "t:" + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
	}

	private String mint() throws Exception {
		HttpResponse<String> response = send("POST", "/try", null);
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body()).get("token").asText();
	}

	private HttpResponse<String> send(String method, String path, String token) throws Exception {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (token != null) {
			builder.header("Authorization", "Bearer " + token);
		}
		return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String header(HttpResponse<?> response, String name) {
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
