package dev.limiter.gateway.webmvc;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.FrozenStoreLatency;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static dev.limiter.test.web.FrozenStoreLatency.p99;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway on a Redis that is frozen (SIGSTOP): a forwarded request on a limited route
 * is answered degraded (fail-open, the default) within the store's timeout, and
 * forwarded; a route the limiter does not count keeps its latency while limited requests
 * wait.
 */
@UsesRedisServer
class GatewayStoreFailureTests {

	private static final long TIMEOUT_MILLIS = 500;

	private static final int WAITING_LIMITED_CALLERS = 16;

	private static final int SAMPLES = 40;

	private RedisServerProcess redis;

	private Backend backend;

	private ConfigurableApplicationContext gateway;

	private FrozenStoreLatency latency;

	@BeforeEach
	void start() throws Exception {
		redis = RedisServerProcess.start();
		backend = Backend.start();
		gateway = Gateways.start(backend, "limiter.store=redis", "limiter.redis.timeout=" + TIMEOUT_MILLIS + "ms",
				"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
				"management.health.redis.enabled=false", "limiter.budgets.tight.windows.minute.limit=100000",
				"limiter.routes[0].pattern=/open/**", "limiter.routes[0].exempt=true",
				"limiter.routes[0].reason=a route the limiter does not count",
				// the breaker stays closed: every limited request waits for the frozen
				// Redis until its timeout, instead of being answered at once
				"resilience4j.circuitbreaker.instances.limiter.sliding-window-size=100000",
				"resilience4j.circuitbreaker.instances.limiter.minimum-number-of-calls=100000");
		latency = new FrozenStoreLatency((path) -> Gateways.request(gateway, path, "frozen-store"), "/limited/x",
				"/open/x", Duration.ofMillis(TIMEOUT_MILLIS), WAITING_LIMITED_CALLERS, SAMPLES);
		latency.awaitAuthoritative();
	}

	@AfterEach
	void stop() {
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
	void forwardedRequestWhenRedisIsFrozenShouldBeAnsweredDegradedWithinTheTimeout() throws Exception {
		int before = backend.received("limited");
		redis.pause();
		long start = System.nanoTime();
		HttpResponse<String> response = Gateways.get(gateway, "/limited/x", "frozen");
		long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("ok");
		assertThat(Gateways.header(response, "X-RateLimit-Degraded")).isEqualTo("true");
		assertThat(elapsedMillis).as("answered within the store's timeout and 500 ms")
			.isBetween(TIMEOUT_MILLIS - 50, TIMEOUT_MILLIS + 500);
		assertThat(backend.received("limited")).isEqualTo(before + 1);
	}

	@Test
	void uncountedRouteWhileSixteenLimitedRequestsWaitForAFrozenRedisShouldKeepItsLatency() throws Exception {
		List<Long> unfrozen = latency.uncountedLatenciesBeside(new CopyOnWriteArrayList<>());
		redis.pause();
		// the outage's first answer (its WARN, the fallback's first decision) is paid
		// once
		assertThat(Gateways.header(Gateways.get(gateway, "/limited/x", "frozen"), "X-RateLimit-Degraded"))
			.isEqualTo("true");
		List<HttpResponse<String>> waited = new CopyOnWriteArrayList<>();
		List<Long> frozen = latency.uncountedLatenciesBeside(waited);

		assertThat(waited).as("limited requests answered while the uncounted route was measured")
			.hasSizeGreaterThanOrEqualTo(WAITING_LIMITED_CALLERS)
			.allSatisfy((response) -> assertThat(Gateways.header(response, "X-RateLimit-Degraded")).isEqualTo("true"));
		assertThat(p99(frozen))
			.as("the uncounted route's p99 with Redis frozen (%s ms), against %d ms unfrozen", frozen, p99(unfrozen))
			.isLessThanOrEqualTo(p99(unfrozen) + 50);
	}

}
