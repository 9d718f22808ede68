package dev.limiter.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Sha256;
import dev.limiter.test.web.MutableClock;
import dev.limiter.test.web.RecordingStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The filter over a real port: headers, bodies, cacheable responses, leases. Time is
 * fixed by the limiter clock.
 */
@SpringBootTest(classes = FilterTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.headers=both",
				// The auth guard counts in the same store; these tests assert on the
				// limiter's own keys and leases.
				"limiter.auth-guard.enabled=false", "limiter.budgets.anonymous.windows.minute.limit=3",
				"limiter.routes[0].pattern=/exempt/**", "limiter.routes[0].exempt=true",
				"limiter.routes[0].reason=probes", "limiter.routes[1].pattern=/{name:work|boom|async|async-callable}",
				"limiter.routes[1].methods=POST", "limiter.routes[1].expensive=true", })
class RateLimitFilterTests {

	// 2030-01-01T00:00:18Z: 42 s left in the minute, 3582 s in the hour.
	private static final long MINUTE_RESET = FilterTestApplication.NOW.getEpochSecond() + 42;

	private final HttpClient http = HttpClient.newHttpClient();

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	@BeforeEach
	void freshCounters() {
		store.clear();
		clock.set(FilterTestApplication.NOW);
		FilterTestApplication.TestController.calls.set(0);
	}

	@Test
	void responseWhenAdmittedShouldCarryXRateLimitHeadersForTheBindingWindow() throws Exception {
		HttpResponse<String> response = send("GET", "/hello", "good-alice");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(header(response, "X-RateLimit-Limit")).isEqualTo("600");
		assertThat(header(response, "X-RateLimit-Remaining")).isEqualTo("599");
		assertThat(header(response, "X-RateLimit-Reset")).isEqualTo(Long.toString(MINUTE_RESET));
		assertThat(header(response, "X-RateLimit-Window")).isEqualTo("60");
	}

	@Test
	void ietfHeadersWhenTheBudgetHasTwoWindowsShouldBeExact() throws Exception {
		HttpResponse<String> response = send("GET", "/hello", "good-ietf");
		assertThat(header(response, "RateLimit-Policy")).isEqualTo("\"minute\";q=600;w=60, \"hour\";q=36000;w=3600");
		assertThat(header(response, "RateLimit")).isEqualTo("\"minute\";r=599;t=42");
	}

	@Test
	void ietfRefusalWhenAtAKnownTimeShouldCarryExactFieldsAndViolatedPolicies() throws Exception {
		clock.set(FilterTestApplication.NOW.plusSeconds(12));
		for (int i = 0; i < 3; i++) {
			send("GET", "/hello", null);
		}
		HttpResponse<String> refused = send("GET", "/hello", null);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(header(refused, "RateLimit-Policy")).isEqualTo("\"minute\";q=3;w=60, \"hour\";q=1000;w=3600");
		assertThat(header(refused, "RateLimit")).isEqualTo("\"minute\";r=0;t=30");
		assertThat(header(refused, "Retry-After")).isEqualTo("30");
		JsonNode body = json.readTree(refused.body());
		assertThat(body.get("violated-policies")).hasSize(1);
		assertThat(body.get("violated-policies").get(0).asText()).isEqualTo("minute");
	}

	@Test
	void ietfHeadersWhenTheHourHasLessLeftShouldFollowTheBindingWindow() throws Exception {
		for (int i = 0; i < 3; i++) {
			send("GET", "/hello", null);
		}
		clock.set(FilterTestApplication.NOW.plusSeconds(60));
		HttpResponse<String> response = send("GET", "/hello", null);
		assertThat(header(response, "RateLimit-Policy")).isEqualTo("\"minute\";q=3;w=60, \"hour\";q=1000;w=3600");
		assertThat(header(response, "RateLimit")).isEqualTo("\"minute\";r=2;t=42");
		assertThat(header(response, "X-RateLimit-Limit")).isEqualTo("3");
	}

	@Test
	void requestWhenRefusedShouldGet429WithRetryAfterProblemBodyAndNoStoreWithoutReachingTheHandler() throws Exception {
		for (int i = 0; i < 3; i++) {
			assertThat(send("GET", "/hello", null).statusCode()).isEqualTo(200);
		}
		HttpResponse<String> refused = send("GET", "/hello", null);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(FilterTestApplication.TestController.calls.get()).isEqualTo(3);
		assertThat(header(refused, "Retry-After")).isEqualTo("42");
		assertThat(header(refused, "Cache-Control")).isEqualTo("no-store");
		assertThat(header(refused, "CDN-Cache-Control")).isEqualTo("no-store");
		assertThat(header(refused, "Content-Type")).startsWith("application/problem+json");
		assertThat(header(refused, "X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(header(refused, "X-RateLimit-Reset")).isEqualTo(Long.toString(MINUTE_RESET));
		JsonNode body = json.readTree(refused.body());
		// headers=both: the IETF fields are on, so the draft's quota-exceeded problem
		// type
		assertThat(body.get("type").asText()).isEqualTo(DefaultRateLimitResponseWriter.QUOTA_EXCEEDED_TYPE);
		assertThat(body.get("title").asText()).isEqualTo("Too Many Requests");
		assertThat(body.get("status").asInt()).isEqualTo(429);
		assertThat(body.get("detail").asText()).contains("anonymous").contains("minute");
		assertThat(body.get("error").asText()).isEqualTo("rate_limit_exceeded");
		assertThat(body.get("message").asText()).isNotBlank();
		assertThat(body.get("retryAfter").asLong()).isEqualTo(42);
		assertThat(body.get("limit").asLong()).isEqualTo(3);
		assertThat(body.get("remaining").asLong()).isEqualTo(0);
		assertThat(body.get("resetTime").asText()).isEqualTo("2030-01-01T00:01:00Z");
		assertThat(body.get("budget").asText()).isEqualTo("anonymous");
		assertThat(body.get("bound").asText()).isEqualTo("minute");
	}

	@Test
	void unauthenticatedRequestsWhenTokensAreMadeUpShouldShareTheAddressCounter() throws Exception {
		for (int i = 0; i < 3; i++) {
			assertThat(send("GET", "/hello", "garbage-" + i).statusCode()).isEqualTo(200);
		}
		assertThat(send("GET", "/hello", "garbage-3").statusCode()).isEqualTo(429);
		assertThat(store.keys()).allSatisfy(key -> assertThat(key).startsWith("anonymous/a:"));
	}

	@Test
	void tokenWhenAuthenticatedShouldBeCountedOnItsHashAgainstTheDefaultBudget() throws Exception {
		send("GET", "/hello", "good-bob");
		assertThat(store.keys()).containsExactly("standard/t:" + Sha256.base64Url("good-bob"));
	}

	@Test
	void budgetSelectorWhenItMatchesAPrincipalShouldGiveItAnotherBudget() throws Exception {
		HttpResponse<String> response = send("GET", "/hello", "good-trial-1");
		assertThat(header(response, "X-RateLimit-Limit")).isEqualTo("3");
		assertThat(store.keys()).containsExactly("anonymous/t:" + Sha256.base64Url("good-trial-1"));
	}

	@Test
	void routeWhenExemptShouldNotBeCounted() throws Exception {
		HttpResponse<String> response = send("GET", "/exempt/anything", null);
		assertThat(response.headers().firstValue("X-RateLimit-Limit")).isEmpty();
		assertThat(store.keys()).isEmpty();
	}

	@Test
	void responseWhenPubliclyCacheableShouldCarryNoPerCallerCountersButStillCount() throws Exception {
		HttpResponse<String> response = send("GET", "/cacheable", "good-carol");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(header(response, "Cache-Control")).contains("public");
		assertThat(response.headers().map().keySet()).noneMatch(name -> name.toLowerCase().contains("ratelimit"));
		assertThat(header(send("GET", "/hello", "good-carol"), "X-RateLimit-Remaining")).isEqualTo("598");
	}

	@Test
	void responseWhenItHasASharedMaxAgeShouldCarryNoPerCallerCounters() throws Exception {
		HttpResponse<String> response = send("GET", "/shared-by-cdn", "good-dave");
		assertThat(header(response, "Cache-Control")).contains("s-maxage=30");
		assertThat(response.headers().map().keySet()).noneMatch(name -> name.toLowerCase().contains("ratelimit"));
	}

	@Test
	void responseWhenPrivatelyCacheableShouldCarryCounters() throws Exception {
		HttpResponse<String> response = send("GET", "/private", "good-erin");
		assertThat(header(response, "X-RateLimit-Remaining")).isEqualTo("599");
	}

	@Test
	void expensiveRequestWhenHandledShouldHoldALeaseAndReleaseItOnCompletion() throws Exception {
		HttpResponse<String> response = send("POST", "/work", "good-frank");
		assertThat(response.statusCode()).isEqualTo(200);
		BoundVerdict during = FilterTestApplication.TestController.boundsDuringWork.get()
			.stream()
			.filter(BoundVerdict::concurrency)
			.findFirst()
			.orElseThrow();
		assertThat(during.remaining()).isEqualTo(9);
		// The release runs after the response is flushed, so the client may see the
		// response first.
		await().atMost(Duration.ofSeconds(10)).until(() -> !store.released().isEmpty());
		assertThat(store.released()).singleElement()
			.satisfies(lease -> assertThat(lease.key()).isEqualTo("t:" + Sha256.base64Url("good-frank")));
	}

	@Test
	void expensiveRequestWhenTheHandlerThrowsShouldReleaseItsLease() throws Exception {
		HttpResponse<String> response = send("POST", "/boom", "good-gina");
		assertThat(response.statusCode()).isEqualTo(500);
		assertThat(FilterTestApplication.TestController.calls.get()).isEqualTo(1);
		assertThat(store.released()).hasSize(1);
	}

	@Test
	void expensiveAsyncRequestWhenTheAsyncWorkCompletesShouldReleaseItsLeaseOnlyThen() throws Exception {
		FilterTestApplication.TestController.pending.set(null);
		CompletableFuture<HttpResponse<String>> response = http.sendAsync(request("POST", "/async", "good-hank"),
				HttpResponse.BodyHandlers.ofString());
		await().atMost(Duration.ofSeconds(10)).until(() -> FilterTestApplication.TestController.pending.get() != null);
		assertThat(store.released()).isEmpty();
		FilterTestApplication.TestController.pending.get().setResult("done");
		HttpResponse<String> completed = response.get();
		assertThat(completed.body()).isEqualTo("done");
		assertThat(header(completed, "X-RateLimit-Remaining")).isEqualTo("599");
		await().atMost(Duration.ofSeconds(10)).until(() -> store.released().size() == 1);
	}

	@Test
	void expensiveRequestWhenItReturnsACompletableFutureShouldReleaseItsLease() throws Exception {
		HttpResponse<String> response = send("POST", "/async-callable", "good-ivy");
		assertThat(response.body()).isEqualTo("later");
		await().atMost(Duration.ofSeconds(10)).until(() -> store.released().size() == 1);
	}

	@Test
	void expensiveRequestWhenRefusedShouldTakeNoLease() throws Exception {
		for (int i = 0; i < 3; i++) {
			send("GET", "/hello", null);
		}
		HttpResponse<String> refused = send("POST", "/work", null);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(store.released()).isEmpty();
		assertThat(FilterTestApplication.TestController.calls.get()).isEqualTo(3);
	}

	private HttpResponse<String> send(String method, String path, String token) throws Exception {
		return http.send(request(method, path, token), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String method, String path, String token) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (token != null) {
			builder.header("Authorization", "Bearer " + token);
		}
		return builder.build();
	}

	private static String header(HttpResponse<?> response, String name) {
		return response.headers()
			.firstValue(name)
			.orElseThrow(() -> new AssertionError("no header " + name + " in " + response.headers().map()));
	}

}
