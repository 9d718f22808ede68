package dev.limiter.guard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.GuardState;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The guard over a real port with Spring Security's AuthenticationFilter; time is set by
 * the limiter clock.
 */
@SpringBootTest(classes = GuardTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AuthGuardHttpTests {

	private static final long BLOCK_MILLIS = Duration.ofMinutes(30).toMillis();

	/**
	 * Each test starts a day after the last, so every lease of an earlier test has
	 * expired.
	 */
	private static final AtomicLong day = new AtomicLong();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	@Autowired
	private AuthGuard guard;

	private Instant start;

	@BeforeEach
	void aNewDay() {
		start = GuardTestApplication.NOW.plus(Duration.ofDays(day.incrementAndGet()));
		clock.set(start);
		GuardTestApplication.slowLookups.set(new CountDownLatch(0));
	}

	@Test
	void guardWhenTheFiftiethFailureArrivesShouldBlockWithAProblemAndTheExactRetryAfter() throws Exception {
		for (int i = 1; i <= 50; i++) {
			assertThat(get("/hello", "Bearer sp_bad" + i).statusCode()).as("failure %d", i).isEqualTo(401);
		}

		HttpResponse<String> refused = get("/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN);

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("1800");
		assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(refused.headers().firstValue("CDN-Cache-Control")).hasValue("no-store");
		assertThat(refused.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
		JsonNode body = json.readTree(refused.body());
		assertThat(body.get("status").asInt()).isEqualTo(429);
		assertThat(body.get("error").asText()).isEqualTo("auth_rate_limit_exceeded");
		assertThat(body.get("retryAfter").asLong()).isEqualTo(1800);
		assertThat(body.get("bound").asText()).isEqualTo("block");
		assertThat(body.get("resetTime").asText()).isEqualTo(start.plusSeconds(1800).toString());
	}

	@Test
	void blockedAddressWhenBlockedShouldNotReachTheLookupUntilTheBlockEndsToTheMillisecond() throws Exception {
		fail(50);
		int lookupsWhenBlocked = GuardTestApplication.lookups.get();

		clock.set(start.plusMillis(BLOCK_MILLIS - 1));
		HttpResponse<String> lastMillisecond = get("/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN);
		assertThat(lastMillisecond.statusCode()).isEqualTo(429);
		assertThat(lastMillisecond.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(GuardTestApplication.lookups.get()).isEqualTo(lookupsWhenBlocked);

		clock.set(start.plusMillis(BLOCK_MILLIS));
		assertThat(get("/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(200);
		assertThat(GuardTestApplication.lookups.get()).isEqualTo(lookupsWhenBlocked + 1);
	}

	@Test
	void goodCredentialWhenFailuresAreCompletedShouldLeaveThemAndPassTheBlockItself() throws Exception {
		String good = "Bearer sp_good-proven-" + day.get();
		fail(49);
		assertThat(get("/hello", good).statusCode()).isEqualTo(200);

		fail(1);

		assertThat(get("/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(429);
		assertThat(get("/hello", good).statusCode()).isEqualTo(200);
	}

	@Test
	void guardWhenHeadersAreMalformedShouldCountThemAsFailures() throws Exception {
		for (int i = 0; i < 25; i++) {
			assertThat(get("/hello", "Bearer").statusCode()).isEqualTo(401);
			assertThat(get("/hello", "Basic Zm9vOmJhcg==").statusCode()).isEqualTo(401);
		}

		assertThat(get("/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(429);
	}

	@Test
	void requestWhenWithoutACredentialShouldNotBeGuarded() throws Exception {
		fail(50);

		assertThat(get("/public/hello", null).statusCode()).isEqualTo(200);
		assertThat(get("/public/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(429);
	}

	@Test
	void guardWhenSixtyBadGuessesAndOneGoodOneRaceShouldStillBlock() throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		GuardTestApplication.slowLookups.set(held);
		int lookupsBefore = GuardTestApplication.lookups.get();

		List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
		for (int i = 0; i < 60; i++) {
			burst.add(getAsync("/hello", "Bearer slow-" + i));
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> GuardTestApplication.lookups.get() - lookupsBefore == 50
					&& burst.stream().filter(CompletableFuture::isDone).count() == 10);
		HttpResponse<String> goodDuringTheBurst = get("/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN);
		held.countDown();
		List<Integer> statuses = new ArrayList<>();
		for (CompletableFuture<HttpResponse<String>> response : burst) {
			statuses.add(response.get().statusCode());
		}

		assertThat(statuses).filteredOn(status -> status == 401).hasSize(50);
		assertThat(statuses).filteredOn(status -> status == 429).hasSize(10);
		assertThat(burst.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 429))
			.allSatisfy(r -> assertThat(r.headers().firstValue("Retry-After")).hasValue("1"));
		assertThat(goodDuringTheBurst.statusCode()).isEqualTo(429);
		assertThat(goodDuringTheBurst.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(GuardTestApplication.lookups.get() - lookupsBefore).isEqualTo(50);

		clock.set(start.plusSeconds(1));
		HttpResponse<String> goodAfterwards = get("/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN);
		assertThat(goodAfterwards.statusCode()).isEqualTo(429);
		assertThat(json.readTree(goodAfterwards.body()).get("bound").asText()).isEqualTo("block");
		assertThat(goodAfterwards.headers().firstValue("Retry-After")).hasValue("1799");
	}

	@Test
	void guardWhenFiftyOneVerificationsSucceedShouldNeverLockAnyoneOut() throws Exception {
		for (int i = 1; i <= 51; i++) {
			assertThat(get("/hello", "Bearer sp_good-fresh-" + day.get() + "-" + i).statusCode())
				.as("verification %d", i)
				.isEqualTo(200);
		}

		assertThat(get("/hello", "Bearer sp_good-fresh-" + day.get() + "-52").statusCode()).isEqualTo(200);
		assertThat(guard.state(AuthGuard.addressKey("127.0.0.1"), clock.millis()))
			.isEqualTo(new GuardState(0, 0, 0, AuthGuardPolicy.PROVEN_CREDENTIALS_PER_ADDRESS));
	}

	@Test
	void guardWhenTheHandlerRunsLongShouldHoldNoReservation() throws Exception {
		CountDownLatch gate = new CountDownLatch(1);
		CountDownLatch entered = new CountDownLatch(1);
		GuardTestApplication.handlerGate.set(gate);
		GuardTestApplication.handlerEntered.set(entered);
		try {
			CompletableFuture<HttpResponse<String>> running = getAsync("/slow-handler",
					"Bearer sp_good-long-" + day.get());
			assertThat(entered.await(20, java.util.concurrent.TimeUnit.SECONDS)).as("handler entered").isTrue();

			GuardState whileTheHandlerRuns = guard.state(AuthGuard.addressKey("127.0.0.1"), clock.millis());

			gate.countDown();
			assertThat(running.get().statusCode()).isEqualTo(200);
			assertThat(whileTheHandlerRuns.pending()).as("lookups in flight while only the handler runs").isZero();
		}
		finally {
			gate.countDown();
			GuardTestApplication.handlerGate.set(new CountDownLatch(0));
		}
	}

	private void fail(int times) throws Exception {
		for (int i = 0; i < times; i++) {
			assertThat(get("/hello", "Bearer sp_wrong" + i).statusCode()).isEqualTo(401);
		}
	}

	private HttpResponse<String> get(String path, String authorization) throws Exception {
		return http.send(request(path, authorization), HttpResponse.BodyHandlers.ofString());
	}

	private CompletableFuture<HttpResponse<String>> getAsync(String path, String authorization) {
		return http.sendAsync(request(path, authorization), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String path, String authorization) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(30));
		if (authorization != null) {
			builder.header("Authorization", authorization);
		}
		return builder.GET().build();
	}

}
