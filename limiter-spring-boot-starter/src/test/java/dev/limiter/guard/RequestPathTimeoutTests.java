package dev.limiter.guard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration;
import dev.limiter.test.redis.DelayingProxy;
import dev.limiter.test.redis.RedisServerProcess;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One store timeout per request, however many store calls it makes: a first-seen
 * credential makes the guard's calls and the budget's, and with Redis frozen or slow
 * still waits at most {@code limiter.redis.timeout} (plus a margin for a busy test
 * machine, well under a second timeout). A Redis slower than the timeout per request
 * degrades and the breaker counts it, though each of its round trips alone is under the
 * timeout.
 */
class RequestPathTimeoutTests {

	private static final long TIMEOUT_MILLIS = 600;

	/**
	 * Room for the HTTP round trip and a loaded machine; a second store timeout would not
	 * fit in it.
	 */
	private static final long MARGIN_MILLIS = 400;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private RedisServerProcess redis;

	private DelayingProxy proxy;

	private ConfigurableApplicationContext app;

	@BeforeEach
	void start() throws Exception {
		redis = RedisServerProcess.start();
		proxy = new DelayingProxy(redis.port());
		app = new SpringApplicationBuilder(GuardTestApplication.class)
			.properties("server.port=0", "limiter.store=redis", "limiter.redis.timeout=" + TIMEOUT_MILLIS + "ms",
					"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + proxy.port(),
					"resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=60s")
			.run();
		// A warm, authoritative limiter first, so that what the tests see is the fault
		// they make.
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (get("Bearer sp_good-warm-up").headers().firstValue("X-RateLimit-Degraded").isPresent()) {
			assertThat(System.nanoTime()).as("authoritative within 20 s of start-up").isLessThan(deadline);
			Thread.sleep(50);
		}
	}

	@AfterEach
	void stop() {
		if (app != null) {
			app.close();
		}
		if (proxy != null) {
			proxy.close();
		}
		if (redis != null) {
			redis.resume();
			redis.close();
		}
	}

	@Test
	void firstSeenCredentialWhenRedisIsFrozenShouldCostOneTimeout() throws Exception {
		redis.pause();

		long start = System.nanoTime();
		HttpResponse<String> response = get("Bearer sp_good-frozen");
		long waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-RateLimit-Degraded")).hasValue("true");
		assertThat(waitedMillis).isLessThan(TIMEOUT_MILLIS + MARGIN_MILLIS);
	}

	@Test
	void requestWhenRedisIsSlowerThanTheTimeoutShouldDegradeWithinOneTimeout() throws Exception {
		CircuitBreaker breaker = app.getBean(LimiterResilienceAutoConfiguration.BREAKER_BEAN_NAME,
				CircuitBreaker.class);
		int failedBefore = breaker.getMetrics().getNumberOfFailedCalls();
		// Two synchronous round trips for a first-seen credential (the guard's
		// reservation, the decision): each
		// alone is well within the timeout, together they are past it.
		proxy.delay(Duration.ofMillis(TIMEOUT_MILLIS * 3 / 5));

		long start = System.nanoTime();
		HttpResponse<String> response = get("Bearer sp_good-slow");
		long waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-RateLimit-Degraded")).hasValue("true");
		assertThat(waitedMillis).isLessThan(TIMEOUT_MILLIS + MARGIN_MILLIS);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).as("the breaker counted the slow request")
			.isGreaterThan(failedBefore);
	}

	private HttpResponse<String> get(String authorization) throws Exception {
		int port = ((ServletWebServerApplicationContext) app).getWebServer().getPort();
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello"))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", authorization)
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
