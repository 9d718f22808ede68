package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.core.guard.AuthGuard;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's HTTP contract over a real port, whatever web stack serves it: each sample
 * (servlet and WebFlux, in memory and on Redis) runs this suite through a subclass that
 * names its port. Plain {@link HttpClient} calls, so the suite knows no stack; every
 * request of a run falls in one minute ({@link OneMinute}).
 */
public abstract class SampleHttpContract {

	protected static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	/** The members of a 429's body, in the order they are written. */
	private static final List<String> REFUSAL_MEMBERS = List.of("type", "title", "status", "detail", "error", "message",
			"retryAfter", "limit", "remaining", "resetTime", "budget", "bound", "violated-policies");

	/**
	 * The demo token's reads of the quota endpoint made to wait for a settlement, by the
	 * port of the app they were made on: every request of a run falls in one minute, so
	 * they count against its bound of 60 reads.
	 */
	private static final Map<Integer, AtomicInteger> QUOTA_READS = new ConcurrentHashMap<>();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ObjectMapper json = new ObjectMapper();

	@Autowired
	private AuthGuard guard;

	@Autowired
	@Qualifier("limiterClock")
	private Clock clock;

	/** The port the sample under test listens on. */
	protected abstract int port();

	@Test
	void pingWhenAnAddressSpendsItsMinuteShouldEndInTheContractsRefusal() throws Exception {
		HttpResponse<String> first = send("GET", "/public/ping", null);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("X-RateLimit-Limit")).hasValue("60");
		int remaining = Integer.parseInt(first.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
		for (int i = 0; i < remaining; i++) {
			assertThat(send("GET", "/public/ping", null).statusCode()).isEqualTo(200);
		}

		HttpResponse<String> refused = send("GET", "/public/ping", null);

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("55");
		assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(refused.headers().firstValue("CDN-Cache-Control")).hasValue("no-store");
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json;charset=UTF-8");
		assertThat(refused.headers().firstValue("Content-Length"))
			.hasValue(Integer.toString(refused.body().getBytes(StandardCharsets.UTF_8).length));
		assertThat(refused.headers().firstValue("X-RateLimit-Limit")).hasValue("60");
		assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(refused.headers().firstValue("X-RateLimit-Reset")).hasValue("1893456060");
		assertThat(refused.headers().firstValue("X-RateLimit-Window")).hasValue("60");
		// a request that takes no lease: its decision names no concurrency policy
		assertThat(refused.headers().firstValue("RateLimit-Policy"))
			.hasValue("\"minute\";q=60;w=60, \"hour\";q=1000;w=3600");
		assertThat(refused.headers().firstValue("RateLimit")).hasValue("\"minute\";r=0;t=55");
		assertThat(refused.body())
			.isEqualTo("{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
					+ "\"title\":\"Too Many Requests\",\"status\":429,\"detail\":\"Budget 'anonymous' allows 60 requests per "
					+ "minute; retry after 55 seconds.\",\"error\":\"rate_limit_exceeded\",\"message\":\"Budget 'anonymous' "
					+ "allows 60 requests per minute; retry after 55 seconds.\",\"retryAfter\":55,\"limit\":60,"
					+ "\"remaining\":0,\"resetTime\":\"2030-01-01T00:01:00Z\",\"budget\":\"anonymous\",\"bound\":\"minute\","
					+ "\"violated-policies\":[\"minute\"]}");
		List<String> members = new ArrayList<>();
		json.readTree(refused.body()).fieldNames().forEachRemaining(members::add);
		assertThat(members).isEqualTo(REFUSAL_MEMBERS);
	}

	@Test
	void recallWhenDemoTokenShouldCarryTheStandardBudgetsCounters() throws Exception {
		HttpResponse<String> admitted = send("POST", "/s/recall", DEMO_TOKEN);

		assertThat(admitted.statusCode()).isEqualTo(200);
		assertThat(admitted.headers().firstValue("X-RateLimit-Limit")).hasValue("600");
		assertThat(admitted.headers().firstValue("X-RateLimit-Window")).hasValue("60");
		assertThat(admitted.headers().firstValue("RateLimit-Policy")).hasValue(
				"\"minute\";q=600;w=60, \"hour\";q=36000;w=3600, \"concurrency\";q=10;qu=\"concurrent-requests\"");
		assertThat(admitted.headers().firstValue("X-RateLimit-Degraded")).isEmpty();
		assertThat(json.readTree(admitted.body()).get("recalled").get(0).asText())
			.isEqualTo("the meeting moved to Thursday");
	}

	@Test
	void agentsWhenPubliclyCacheableShouldCarryNoCounters() throws Exception {
		HttpResponse<String> agents = send("GET", "/s/agents.md", DEMO_TOKEN);

		assertThat(agents.statusCode()).isEqualTo(200);
		assertThat(agents.headers().firstValue("Cache-Control")).hasValue("max-age=60, public");
		assertThat(agents.headers().firstValue("X-RateLimit-Limit")).isEmpty();
		assertThat(agents.headers().firstValue("RateLimit")).isEmpty();
	}

	@Test
	void recallWhenTokenIsUnknownShouldAnswerTheBearerProblem() throws Exception {
		HttpResponse<String> refused = send("POST", "/s/recall", "sp_UNKNOWN000000000000000000000000");

		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"invalid_token\"");
		assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
		JsonNode body = json.readTree(refused.body());
		assertThat(body.get("status").asInt()).isEqualTo(401);
		assertThat(body.get("error").asText()).isEqualTo("invalid_token");
	}

	@Test
	void completionWhenItReportsTokensShouldBeSettledAgainstItsReservation() throws Exception {
		HttpResponse<String> first = send("POST", "/s/complete", DEMO_TOKEN, "{\"tokens\": 1500}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("RateLimit"))
			.hasValueSatisfying((value) -> assertThat(value).contains("\"tokens\";r=1900;"));
		// settled once the request has ended, off the response path: the client may have
		// its answer a moment before
		awaitCompletionTokensLeft(500);

		HttpResponse<String> second = send("POST", "/s/complete", DEMO_TOKEN, "{\"tokens\": 1}");

		assertThat(second.headers().firstValue("RateLimit"))
			.hasValueSatisfying((value) -> assertThat(value).contains("\"tokens\";r=400;"));
	}

	/**
	 * Waits until the demo token's {@code completion} budget has {@code tokens} tokens
	 * left, read from the quota endpoint (which spends nothing of it).
	 */
	private void awaitCompletionTokensLeft(long tokens) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		long left = completionTokensLeft();
		while (left != tokens && System.nanoTime() < deadline) {
			Thread.sleep(10);
			left = completionTokensLeft();
		}
		assertThat(left).as("the completion budget's tokens left once the first request is settled").isEqualTo(tokens);
	}

	private long completionTokensLeft() throws Exception {
		QUOTA_READS.computeIfAbsent(port(), (port) -> new AtomicInteger()).incrementAndGet();
		for (JsonNode budget : json.readTree(send("GET", "/rate-limit", DEMO_TOKEN).body()).get("budgets")) {
			if (budget.get("budget").asText().equals("completion")) {
				for (JsonNode bound : budget.get("bounds")) {
					if (bound.get("name").asText().equals("tokens")) {
						return bound.get("remaining").asLong();
					}
				}
			}
		}
		throw new AssertionError("the quota endpoint shows no tokens window of the completion budget");
	}

	@Test
	void rateLimitWhenReadShouldShowWhatTheNextCountedRequestSeesAndBeBoundedPerCaller() throws Exception {
		HttpResponse<String> quota = send("GET", "/rate-limit", DEMO_TOKEN);
		assertThat(quota.statusCode()).isEqualTo(200);
		assertThat(quota.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(quota.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		JsonNode budgets = json.readTree(quota.body()).get("budgets");
		assertThat(budgets.findValuesAsText("budget")).contains("standard", "completion");
		JsonNode standard = budgets.get(0);
		assertThat(standard.get("budget").asText()).isEqualTo("standard");
		JsonNode minute = standard.get("bounds").get(0);
		assertThat(minute.get("name").asText()).isEqualTo("minute");
		assertThat(minute.get("limit").asLong()).isEqualTo(600);
		assertThat(minute.get("reset").asText()).isEqualTo("2030-01-01T00:01:00Z");

		HttpResponse<String> counted = send("POST", "/s/recall", DEMO_TOKEN);

		assertThat(minute.get("remaining").asLong())
			.isEqualTo(Long.parseLong(counted.headers().firstValue("X-RateLimit-Remaining").orElseThrow()) + 1);
		// 60 reads a minute per caller: one was made above, and any another test of this
		// app made while it waited for a settlement
		int readsBefore = QUOTA_READS.computeIfAbsent(port(), (port) -> new AtomicInteger()).get();
		for (int i = 1 + readsBefore; i < 60; i++) {
			assertThat(send("GET", "/rate-limit", DEMO_TOKEN).statusCode()).as("read %d", i + 1).isEqualTo(200);
		}
		HttpResponse<String> refused = send("GET", "/rate-limit", DEMO_TOKEN);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("55");
		assertThat(json.readTree(refused.body()).get("budget").asText()).isEqualTo("quota-endpoint");
	}

	@Test
	void rateLimitWhenAnonymousShouldAnswer401WithoutSpendingTheAddressesBudget() throws Exception {
		HttpResponse<String> anonymous = send("GET", "/rate-limit", null);

		assertThat(anonymous.statusCode()).isEqualTo(401);
		assertThat(anonymous.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(anonymous.headers().firstValue("X-RateLimit-Limit")).isEmpty();
	}

	@Test
	void guardWhenAnAddressSendsFiftyBadTokensShouldBlockItWithTheGuardsProblem() throws Exception {
		String address = AuthGuard.addressKey("127.0.0.1");
		// the failures of other tests in this run start from nothing
		guard.unblock(address, clock.millis());
		try {
			for (int i = 0; i < 50; i++) {
				assertThat(send("POST", "/s/recall", String.format("sp_BAD%029d", i)).statusCode()).as("failure %d", i)
					.isEqualTo(401);
			}

			HttpResponse<String> refused = send("POST", "/s/recall", "sp_UNKNOWN000000000000000000000000");

			assertThat(refused.statusCode()).isEqualTo(429);
			assertThat(refused.headers().firstValue("Retry-After")).hasValue("1800");
			assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
			assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json;charset=UTF-8");
			assertThat(refused.headers().firstValue("WWW-Authenticate")).isEmpty();
			assertThat(refused.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Too Many Requests\","
					+ "\"status\":429,\"detail\":\"Too many failed authentications from this address; retry after 1800 "
					+ "seconds.\",\"error\":\"auth_rate_limit_exceeded\",\"message\":\"Too many failed authentications "
					+ "from this address; retry after 1800 seconds.\",\"retryAfter\":1800,\"bound\":\"block\","
					+ "\"resetTime\":\"2030-01-01T00:30:05Z\"}");
		}
		finally {
			guard.unblock(address, clock.millis());
		}
	}

	private HttpResponse<String> send(String method, String path, String token) throws Exception {
		return send(method, path, token, null);
	}

	private HttpResponse<String> send(String method, String path, String token, String jsonBody) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, (jsonBody != null) ? HttpRequest.BodyPublishers.ofString(jsonBody)
					: HttpRequest.BodyPublishers.noBody());
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		if (jsonBody != null) {
			request.header("Content-Type", "application/json");
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Every request of a run falls in one minute: 2030-01-01T00:00:05Z. */
	@TestConfiguration(proxyBeanMethods = false)
	public static class OneMinute {

		@Bean(name = "limiterClock", defaultCandidate = false)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:05Z"), ZoneOffset.UTC);
		}

	}

}
