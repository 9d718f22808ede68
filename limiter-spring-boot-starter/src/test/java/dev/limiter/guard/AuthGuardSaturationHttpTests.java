package dev.limiter.guard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Saturation of lookups in flight: a transient 429 with Retry-After: 1 that starts no
 * block.
 */
@SpringBootTest(classes = GuardTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.auth-guard.max-pending=3", "limiter.auth-guard.threshold=5" })
class AuthGuardSaturationHttpTests {

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	private int port;

	@Autowired
	private AuthGuard guard;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	@Test
	void guardWhenSaturatedShouldAnswerRetryAfterOneAndStartNoBlock() throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		GuardTestApplication.slowLookups.set(held);
		int before = GuardTestApplication.lookups.get();
		List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			inFlight.add(http.sendAsync(request("Bearer slow-" + i), HttpResponse.BodyHandlers.ofString()));
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> GuardTestApplication.lookups.get() - before == 3);

		HttpResponse<String> saturated = http.send(request("Bearer " + GuardTestApplication.GOOD_TOKEN),
				HttpResponse.BodyHandlers.ofString());

		assertThat(saturated.statusCode()).isEqualTo(429);
		assertThat(saturated.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(saturated.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(new ObjectMapper().readTree(saturated.body()).get("error").asText())
			.isEqualTo("auth_rate_limit_exceeded");
		assertThat(new ObjectMapper().readTree(saturated.body()).get("bound").asText()).isEqualTo("pending");
		String address = AuthGuard.addressKey("127.0.0.1");
		assertThat(guard.state(address, clock.millis()).blocked()).isFalse();

		held.countDown();
		for (CompletableFuture<HttpResponse<String>> response : inFlight) {
			assertThat(response.get().statusCode()).isEqualTo(401);
		}
		assertThat(guard.state(address, clock.millis()).failures()).isEqualTo(3);
		assertThat(guard.state(address, clock.millis()).pending()).isZero();
		assertThat(http.send(request("Bearer " + GuardTestApplication.GOOD_TOKEN), HttpResponse.BodyHandlers.ofString())
			.statusCode()).isEqualTo(200);
	}

	private HttpRequest request(String authorization) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello"))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", authorization)
			.GET()
			.build();
	}

}
