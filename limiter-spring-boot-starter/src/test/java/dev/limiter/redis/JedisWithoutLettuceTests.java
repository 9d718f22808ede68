package dev.limiter.redis;

import java.io.File;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's documented way to use Jedis: Lettuce excluded from the class path,
 * {@code spring.data.redis.client-type=jedis}. Each application runs in a JVM of its own
 * whose class path has no Lettuce (nor Netty) at all, so loading any class of it would
 * fail: it starts, counts exactly, across two instances too, degrades without a
 * {@code 5xx} while Redis is down and heals when it returns, on a standalone Redis and
 * behind Sentinel.
 */
@UsesRedisServer
class JedisWithoutLettuceTests {

	/** The anonymous budget's minute, 2030-01-01T00:01:00Z in Unix seconds. */
	private static final String RESET = "1893456060";

	private static final Predicate<String> LETTUCE = entry -> entry.contains(File.separator + "lettuce-core")
			|| entry.contains("lettuce-core-") || entry.contains(File.separator + "io" + File.separator + "netty")
			// Reactor Netty (the reactive tests' server) needs Netty itself: without it,
			// Boot's reactive HTTP client configuration cannot even be evaluated
			|| entry.contains("reactor-netty");

	@Test
	void applicationWhenOnJedisWithoutLettuceShouldCountExactlyDegradeAndHeal() throws Exception {
		try (RedisServerProcess redis = RedisServerProcess.start();
				ForkedApplication first = start("spring.data.redis.host=127.0.0.1",
						"spring.data.redis.port=" + redis.port());
				ForkedApplication second = start("spring.data.redis.host=127.0.0.1",
						"spring.data.redis.port=" + redis.port())) {
			assertThat(first.classPath()).doesNotContain("lettuce").doesNotContain("netty").contains("jedis");
			assertThat(first.output()).contains("Limiter counting in store 'redis'")
				.doesNotContain("NoClassDefFoundError")
				.doesNotContain("io.lettuce");

			assertFiveThenRefused(List.of(first, second));
			assertThat(redis.call("KEYS", "limiter:*")).asList().isNotEmpty();

			// A new minute: the callers are no longer known over their limit, so the next
			// requests ask the store.
			first.post("/test/advance?seconds=60");
			second.post("/test/advance?seconds=60");
			redis.stop();
			for (ForkedApplication app : List.of(first, second)) {
				HttpResponse<String> degraded = app.get("/ping");
				assertThat(degraded.statusCode()).isLessThan(500);
				assertThat(degraded.headers().firstValue("X-RateLimit-Degraded")).hasValue("true");
			}

			redis.restart();
			// The restarted Redis is empty: once healed, the minute counts from zero
			// again.
			awaitAuthoritative(first);
			awaitAuthoritative(second);
			assertThat(first.output()).doesNotContain("NoClassDefFoundError");
		}
	}

	@Test
	void applicationWhenOnJedisBehindSentinelShouldCountExactlyDegradeAndHeal() throws Exception {
		try (RedisServerProcess master = RedisServerProcess.start();
				RedisServerProcess sentinel = RedisServerProcess.startSentinel("limiter-master", master.port());
				ForkedApplication app = start("spring.data.redis.sentinel.master=limiter-master",
						"spring.data.redis.sentinel.nodes=" + sentinel.address())) {
			assertThat(app.output()).contains("Limiter counting in store 'redis'")
				.doesNotContain("NoClassDefFoundError");

			assertFiveThenRefused(List.of(app));
			assertThat(master.call("KEYS", "limiter:*")).asList().isNotEmpty();

			app.post("/test/advance?seconds=60");
			master.stop();
			HttpResponse<String> degraded = app.get("/ping");
			assertThat(degraded.statusCode()).isLessThan(500);
			assertThat(degraded.headers().firstValue("X-RateLimit-Degraded")).hasValue("true");

			master.restart();
			awaitAuthoritative(app);
		}
	}

	private static ForkedApplication start(String... redisProperties) throws Exception {
		List<String> properties = new ArrayList<>(List.of("limiter.store=redis", "spring.data.redis.client-type=jedis",
				"limiter.redis.timeout=500ms", "limiter.budgets.anonymous.windows.minute.limit=5",
				"limiter.budgets.anonymous.windows.hour.limit=1000",
				"resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=1s",
				"limiter.routes[0].pattern=/actuator/**", "limiter.routes[0].exempt=true",
				"limiter.routes[0].reason=probes", "limiter.routes[1].pattern=/test/**",
				"limiter.routes[1].exempt=true", "limiter.routes[1].reason=test control",
				"management.health.redis.enabled=false"));
		properties.addAll(List.of(redisProperties));
		return ForkedApplication.start(JedisOnlyApplication.class, LETTUCE, properties.toArray(String[]::new));
	}

	/**
	 * Five admitted in all, in turn over the instances, with the headers counting down
	 * the one shared minute; then every instance refuses with the minute's reset.
	 */
	private static void assertFiveThenRefused(List<ForkedApplication> instances) throws Exception {
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> admitted = instances.get(i % instances.size()).get("/ping");
			assertThat(admitted.statusCode()).as("request %d", i + 1).isEqualTo(200);
			assertThat(admitted.headers().firstValue("X-RateLimit-Degraded")).isEmpty();
			assertThat(admitted.headers().firstValue("X-RateLimit-Limit")).hasValue("5");
			assertThat(admitted.headers().firstValue("X-RateLimit-Remaining")).hasValue(String.valueOf(4 - i));
			assertThat(admitted.headers().firstValue("X-RateLimit-Reset")).hasValue(RESET);
			assertThat(admitted.headers().firstValue("X-RateLimit-Window")).hasValue("60");
		}
		for (ForkedApplication instance : instances) {
			HttpResponse<String> refused = instance.get("/ping");
			assertThat(refused.statusCode()).isEqualTo(429);
			assertThat(refused.headers().firstValue("X-RateLimit-Degraded")).isEmpty();
			assertThat(refused.headers().firstValue("Retry-After")).hasValue("55");
			assertThat(refused.headers().firstValue("X-RateLimit-Limit")).hasValue("5");
			assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
			assertThat(refused.headers().firstValue("X-RateLimit-Reset")).hasValue(RESET);
		}
	}

	private static void awaitAuthoritative(ForkedApplication app) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		HttpResponse<String> response = app.get("/ping");
		while (response.headers().firstValue("X-RateLimit-Degraded").isPresent()) {
			assertThat(System.nanoTime()).as("authoritative again within 30 s").isLessThan(deadline);
			Thread.sleep(100);
			response = app.get("/ping");
		}
		assertThat(response.statusCode()).isLessThan(500);
		assertThat(response.headers().firstValue("X-RateLimit-Limit")).hasValue("5");
	}

}
