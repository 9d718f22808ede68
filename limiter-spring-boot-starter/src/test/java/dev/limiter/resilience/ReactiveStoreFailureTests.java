package dev.limiter.resilience;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.spring.RateLimitExempt;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.FrozenStoreLatency;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static dev.limiter.test.web.FrozenStoreLatency.header;
import static dev.limiter.test.web.FrozenStoreLatency.p99;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure policy on WebFlux against a real redis-server frozen with {@code SIGSTOP}:
 * a limited route is answered degraded within {@code limiter.redis.timeout} (and 100 ms),
 * and a route the limiter does not count keeps its unfrozen speed while 16 limited
 * requests wait for Redis: the event loop is never held. BlockHound is installed, so a
 * blocking call on a Reactor Netty or Lettuce thread fails the requests.
 */
@ExtendWith(BlockHoundExtension.class)
@UsesRedisServer
class ReactiveStoreFailureTests {

	private static final long TIMEOUT_MILLIS = 300;

	private static final int WAITING_LIMITED_REQUESTS = 16;

	private static final int SAMPLES = 200;

	private RedisServerProcess redis;

	private ConfigurableApplicationContext app;

	private FrozenStoreLatency latency;

	@BeforeEach
	void startRedisAndTheApplication() throws Exception {
		redis = RedisServerProcess.start();
		app = new SpringApplicationBuilder(ReactiveApplication.class).web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "limiter.store=redis", "limiter.redis.timeout=" + TIMEOUT_MILLIS + "ms",
					"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
					"management.health.redis.enabled=false", "limiter.auth-guard.enabled=false",
					// closed after each test: a graceful shutdown waited its full 30 s
					// for
					// connections the HTTP clients keep open, twice per run
					"server.shutdown=immediate", "limiter.budgets.anonymous.windows.minute.limit=100000",
					"limiter.budgets.anonymous.windows.hour.limit=100000",
					// the breaker stays closed: every limited request waits for the
					// frozen
					// Redis until its timeout, instead of being answered at once
					"resilience4j.circuitbreaker.instances.limiter.sliding-window-size=100000",
					"resilience4j.circuitbreaker.instances.limiter.minimum-number-of-calls=100000")
			.run();
		int port = ((WebServerApplicationContext) app).getWebServer().getPort();
		latency = new FrozenStoreLatency(
				(path) -> HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
					.timeout(Duration.ofSeconds(30))
					.GET()
					.build(),
				"/limited", "/exempt", Duration.ofMillis(TIMEOUT_MILLIS), WAITING_LIMITED_REQUESTS, SAMPLES);
		latency.awaitAuthoritative();
	}

	@AfterEach
	void stopEverything() {
		if (redis != null) {
			redis.resume();
		}
		if (app != null) {
			app.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void limitedRouteWhenRedisIsFrozenShouldBeAnsweredDegradedWithinTheTimeout() throws Exception {
		redis.pause();
		long start = System.nanoTime();
		HttpResponse<String> response = latency.get("/limited");
		long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(header(response, "X-RateLimit-Degraded")).isEqualTo("true");
		assertThat(elapsedMillis).as("answered within the store's timeout and 100 ms")
			.isBetween(TIMEOUT_MILLIS - 50, TIMEOUT_MILLIS + 100);
	}

	@Test
	void uncountedRouteWhileSixteenLimitedRequestsWaitForAFrozenRedisShouldKeepItsSpeed() throws Exception {
		List<HttpResponse<String>> unfrozenLimited = new CopyOnWriteArrayList<>();
		List<Long> unfrozen = latency.uncountedLatenciesBeside(unfrozenLimited);
		redis.pause();
		// the outage's first answer (its WARN, the fallback's first decision) is a
		// once-per-outage cost; what must not change is the uncounted route's speed while
		// limited requests keep waiting on the frozen Redis after that
		assertThat(header(latency.get("/limited"), "X-RateLimit-Degraded")).isEqualTo("true");
		List<HttpResponse<String>> frozenLimited = new CopyOnWriteArrayList<>();
		List<Long> frozen = latency.uncountedLatenciesBeside(frozenLimited);

		assertThat(unfrozenLimited).allSatisfy((response) -> {
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(header(response, "X-RateLimit-Degraded")).isNull();
		});
		assertThat(frozenLimited).as("limited requests answered while the uncounted route was measured")
			.hasSizeGreaterThanOrEqualTo(WAITING_LIMITED_REQUESTS)
			.allSatisfy((response) -> {
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(header(response, "X-RateLimit-Degraded")).isEqualTo("true");
			});
		assertThat(p99(frozen))
			.as("the uncounted route's p99 with Redis frozen (%s ms), against %d ms unfrozen", frozen, p99(unfrozen))
			.isLessThanOrEqualTo(p99(unfrozen) + 20);
	}

	/** A WebFlux application on the starter with the Redis store (Lettuce). */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ReactiveApplication {

		/**
		 * Reactor Netty, as a WebFlux application runs: with Tomcat also on this module's
		 * test class path, Boot would otherwise serve the reactive application on Tomcat.
		 */
		@Bean
		NettyReactiveWebServerFactory reactorNettyServer() {
			return new NettyReactiveWebServerFactory();
		}

		@Bean(name = "limiterClock")
		Clock limiterClock() {
			return new MutableClock(StoreFailureTestApplication.NOW);
		}

		@Bean
		SecurityWebFilterChain permitAll(ServerHttpSecurity http) {
			return http.authorizeExchange((exchanges) -> exchanges.anyExchange().permitAll())
				.csrf(ServerHttpSecurity.CsrfSpec::disable)
				.build();
		}

		@Bean
		Routes routes() {
			return new Routes();
		}

	}

	@RestController
	static class Routes {

		@GetMapping("/limited")
		String limited() {
			return "limited";
		}

		@RateLimitExempt(reason = "not counted")
		@GetMapping("/exempt")
		String exempt() {
			return "exempt";
		}

	}

}
