package dev.limiter.gateway.webflux;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.FrozenStoreLatency;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.ConfigurableApplicationContext;

import static dev.limiter.test.web.FrozenStoreLatency.header;
import static dev.limiter.test.web.FrozenStoreLatency.p99;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway on a real redis-server frozen with {@code SIGSTOP}: a request on a
 * {@code Limiter} route is forwarded degraded within {@code limiter.redis.timeout} (the
 * budget fails open), and a route the limiter does not count keeps its unfrozen latency
 * while 16 limited requests wait for Redis.
 */
@ExtendWith(BlockHoundExtension.class)
@UsesRedisServer
class LimiterGatewayStoreFailureTests {

	private static final long TIMEOUT_MILLIS = 300;

	private static final int WAITING_LIMITED_REQUESTS = 16;

	private static final int SAMPLES = 200;

	private CountingBackend backend;

	private RedisServerProcess redis;

	private ConfigurableApplicationContext gateway;

	private FrozenStoreLatency latency;

	@BeforeEach
	void startRedisTheBackendAndTheGateway() throws Exception {
		redis = RedisServerProcess.start();
		backend = CountingBackend.start();
		List<String> properties = new ArrayList<>(List.of("limiter.store=redis",
				"limiter.redis.timeout=" + TIMEOUT_MILLIS + "ms", "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=" + redis.port(), "limiter.budgets.gold.windows.minute.limit=100000",
				"limiter.budgets.gold.windows.minute.duration=1m", "limiter.routes[0].pattern=/plain/**",
				"limiter.routes[0].exempt=true", "limiter.routes[0].reason=measured beside the limited route",
				// the breaker stays closed: every limited request waits for the frozen
				// Redis until its timeout, instead of being answered at once
				"resilience4j.circuitbreaker.instances.limiter.sliding-window-size=100000",
				"resilience4j.circuitbreaker.instances.limiter.minimum-number-of-calls=100000"));
		properties.addAll(GatewayApplication.route(0, "gold", backend.uri(), "[0]=Limiter=gold"));
		properties.addAll(GatewayApplication.route(1, "plain", backend.uri()));
		gateway = GatewayApplication.run(properties);
		latency = new FrozenStoreLatency(this::request, "/gold/items", "/plain/items",
				Duration.ofMillis(TIMEOUT_MILLIS), WAITING_LIMITED_REQUESTS, SAMPLES);
		latency.awaitAuthoritative();
	}

	@AfterEach
	void stopEverything() {
		if (redis != null) {
			redis.resume();
		}
		if (gateway != null) {
			gateway.close();
		}
		if (backend != null) {
			backend.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void limiterRouteWhenRedisIsFrozenShouldBeForwardedDegradedWithinTheTimeout() throws Exception {
		int before = backend.received("gold");
		redis.pause();
		long start = System.nanoTime();
		HttpResponse<String> response = latency.get("/gold/items");
		long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(header(response, "X-RateLimit-Degraded")).isEqualTo("true");
		assertThat(backend.received("gold")).as("forwarded").isEqualTo(before + 1);
		assertThat(elapsedMillis).as("answered within the store's timeout and 150 ms")
			.isBetween(TIMEOUT_MILLIS - 50, TIMEOUT_MILLIS + 150);
	}

	@Test
	void uncountedRouteWhileSixteenLimitedRequestsWaitForAFrozenRedisShouldKeepItsLatency() throws Exception {
		List<HttpResponse<String>> unfrozenLimited = new CopyOnWriteArrayList<>();
		List<Long> unfrozen = latency.uncountedLatenciesBeside(unfrozenLimited);
		redis.pause();
		// the outage's first answer (its WARN, the fallback's first decision) is a
		// once-per-outage cost, apart from what is measured
		assertThat(header(latency.get("/gold/items"), "X-RateLimit-Degraded")).isEqualTo("true");
		List<HttpResponse<String>> frozenLimited = new CopyOnWriteArrayList<>();
		List<Long> frozen = latency.uncountedLatenciesBeside(frozenLimited);

		// unfrozen, a limited request is answered by Redis, or (a busy machine missing
		// the
		// timeout now and then) degraded: either way admitted, at the same pace as frozen
		assertThat(unfrozenLimited).allSatisfy((response) -> assertThat(response.statusCode()).isEqualTo(200));
		assertThat(frozenLimited).hasSizeGreaterThanOrEqualTo(WAITING_LIMITED_REQUESTS).allSatisfy((response) -> {
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(header(response, "X-RateLimit-Degraded")).isEqualTo("true");
		});
		assertThat(p99(frozen))
			.as("the uncounted route's p99 with Redis frozen (%s ms), against %d ms unfrozen", frozen, p99(unfrozen))
			.isLessThanOrEqualTo(p99(unfrozen) + 20);
	}

	private HttpRequest request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + GatewayApplication.port(gateway) + path))
			.header("Authorization", "Bearer tok-frozen")
			.timeout(Duration.ofSeconds(30))
			.build();
	}

}
