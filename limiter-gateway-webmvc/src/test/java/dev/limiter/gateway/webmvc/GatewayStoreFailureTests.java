package dev.limiter.gateway.webmvc;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.test.redis.RedisServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway on a Redis that is frozen (SIGSTOP): a forwarded request on a limited route
 * is answered degraded (fail-open, the default) within the store's timeout, and
 * forwarded; a route the limiter does not count keeps its latency while limited requests
 * wait.
 */
class GatewayStoreFailureTests {

	private static final long TIMEOUT_MILLIS = 500;

	private static final int WAITING_LIMITED_CALLERS = 16;

	private static final int SAMPLES = 40;

	private RedisServerProcess redis;

	private Backend backend;

	private ConfigurableApplicationContext gateway;

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
		awaitAuthoritative();
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
		List<Long> unfrozen = uncountedLatenciesBeside(new CopyOnWriteArrayList<>());
		redis.pause();
		// the outage's first answer (its WARN, the fallback's first decision) is paid
		// once
		assertThat(Gateways.header(Gateways.get(gateway, "/limited/x", "frozen"), "X-RateLimit-Degraded"))
			.isEqualTo("true");
		List<HttpResponse<String>> waited = new CopyOnWriteArrayList<>();
		List<Long> frozen = uncountedLatenciesBeside(waited);

		assertThat(waited).as("limited requests answered while the uncounted route was measured")
			.hasSizeGreaterThanOrEqualTo(WAITING_LIMITED_CALLERS)
			.allSatisfy((response) -> assertThat(Gateways.header(response, "X-RateLimit-Degraded")).isEqualTo("true"));
		assertThat(p99(frozen))
			.as("the uncounted route's p99 with Redis frozen (%s ms), against %d ms unfrozen", frozen, p99(unfrozen))
			.isLessThanOrEqualTo(p99(unfrozen) + 50);
	}

	/**
	 * The uncounted route's latencies while 16 callers each send limited requests, one at
	 * a time, until the measurement ends.
	 */
	private List<Long> uncountedLatenciesBeside(List<HttpResponse<String>> limited) throws Exception {
		AtomicBoolean measuring = new AtomicBoolean(true);
		ExecutorService callers = Executors.newFixedThreadPool(WAITING_LIMITED_CALLERS);
		List<Future<?>> running = new ArrayList<>();
		try {
			for (int i = 0; i < WAITING_LIMITED_CALLERS; i++) {
				String caller = "waiting-" + i;
				running.add(callers.submit(() -> {
					do {
						limited.add(Gateways.get(gateway, "/limited/x", caller));
					}
					while (measuring.get());
					return null;
				}));
			}
			List<Long> latencies = new ArrayList<>();
			for (int i = 0; i < SAMPLES; i++) {
				long start = System.nanoTime();
				HttpResponse<String> response = Gateways.get(gateway, "/open/x", "uncounted");
				latencies.add(Duration.ofNanos(System.nanoTime() - start).toMillis());
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(Gateways.header(response, "X-RateLimit-Limit")).as("not counted").isNull();
			}
			return latencies;
		}
		finally {
			measuring.set(false);
			for (Future<?> caller : running) {
				caller.get(30, TimeUnit.SECONDS);
			}
			callers.shutdownNow();
		}
	}

	private static long p99(List<Long> latencies) {
		List<Long> sorted = new ArrayList<>(latencies);
		Collections.sort(sorted);
		return sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1);
	}

	/**
	 * A cold JVM on a busy machine may miss the timeout on its first decisions: each test
	 * starts from a warm, authoritative limiter and warm routes.
	 */
	private void awaitAuthoritative() throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (Gateways.header(Gateways.get(gateway, "/limited/x", "warm"), "X-RateLimit-Degraded") != null) {
			assertThat(System.nanoTime()).as("authoritative within 20 s of start-up").isLessThan(deadline);
			Thread.sleep(50);
		}
		for (int i = 0; i < 50; i++) {
			Gateways.get(gateway, "/limited/x", "warm");
			Gateways.get(gateway, "/open/x", "warm");
		}
	}

}
