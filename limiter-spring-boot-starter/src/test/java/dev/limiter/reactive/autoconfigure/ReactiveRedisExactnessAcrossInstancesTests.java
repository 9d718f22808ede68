package dev.limiter.reactive.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.web.server.WebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Exactly the bound" across two reactive instances on one Redis, for each algorithm, as
 * {@code RedisExactnessAcrossInstancesTests} and
 * {@code RedisAlgorithmExactnessAcrossInstancesTests} show it on the servlet stack: two
 * application contexts share one Redis, each with 32 concurrent clients sending one
 * credential's requests through its {@link ReactiveRateLimitFilter} from Reactor's
 * non-blocking threads (Lettuce's calls that do not block, under BlockHound), and exactly
 * the bound is admitted: the fixed and sliding windows' limit, the bucket's burst (the
 * clock stands still, so nothing refills).
 */
@ExtendWith(BlockHoundExtension.class)
@UsesRedisServer
class ReactiveRedisExactnessAcrossInstancesTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private static final int LIMIT = 137;

	private static final int CLIENTS_PER_INSTANCE = 32;

	private static final int REQUESTS_PER_CLIENT = 12;

	/** The status recorded for an answer the store did not decide. */
	private static final int DEGRADED = -1;

	private static final WebFilterChain APPLICATION = (exchange) -> Mono.empty();

	private final ReactiveWebApplicationContextRunner instance = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class, LimiterResilienceAutoConfiguration.class,
				LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
				LimiterRoutesAutoConfiguration.class, LimiterReactiveAutoConfiguration.class))
		.withUserConfiguration(FixedClock.class)
		// a decision that times out is admitted by the fallback, exact for one instance
		// only: on a busy machine the first ones of a cold JVM may, so the timeout here
		// is
		// generous and a degraded answer fails the test instead of passing for a count
		.withPropertyValues("limiter.store=redis", "limiter.redis.timeout=5s", "limiter.auth-guard.enabled=false");

	@Test
	void fixedWindowWhenTwoReactiveInstancesShareARedisShouldAdmitExactlyTheLimit() {
		assertExactAcrossTwoInstances("limiter.budgets.standard.windows.minute.limit=" + LIMIT);
	}

	@Test
	void slidingWindowWhenTwoReactiveInstancesShareARedisShouldAdmitExactlyTheLimit() {
		assertExactAcrossTwoInstances("limiter.budgets.standard.windows.minute.limit=" + LIMIT,
				"limiter.budgets.standard.windows.minute.algorithm=sliding-window");
	}

	@Test
	void tokenBucketWhenTwoReactiveInstancesShareARedisShouldAdmitExactlyTheBurst() {
		assertExactAcrossTwoInstances("limiter.budgets.standard.windows.minute.limit=60",
				"limiter.budgets.standard.windows.minute.algorithm=token-bucket",
				"limiter.budgets.standard.windows.minute.burst=" + LIMIT);
	}

	private void assertExactAcrossTwoInstances(String... algorithm) {
		String credential = "tok-" + UUID.randomUUID();
		ReactiveWebApplicationContextRunner configured = instance.withPropertyValues(algorithm)
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port());
		configured.run((first) -> configured.run((second) -> {
			assertThat(first).hasNotFailed();
			assertThat(second).hasNotFailed();
			assertThat(first.getBean(ReactiveRateLimitFilter.class))
				.isNotSameAs(second.getBean(ReactiveRateLimitFilter.class));
			List<Integer> statuses = hammer(credential, first, second);

			assertThat(statuses).hasSize(2 * CLIENTS_PER_INSTANCE * REQUESTS_PER_CLIENT);
			assertThat(statuses).as("every decision made by Redis").doesNotContain(DEGRADED);
			assertThat(statuses).filteredOn((status) -> status == 200).hasSize(LIMIT);
			assertThat(statuses).filteredOn((status) -> status == 429).hasSize(statuses.size() - LIMIT);
		}));
	}

	/**
	 * Every client of every instance at once, each on a non-blocking thread sending its
	 * requests one after the other; the statuses of all of them. The exchanges are made,
	 * and each instance has decided once for another credential, on the test's own
	 * thread: loading a class reads a jar, a blocking call BlockHound would report on the
	 * first request made from a non-blocking thread.
	 */
	private static List<Integer> hammer(String credential, AssertableReactiveWebApplicationContext... instances) {
		List<Flux<Integer>> clients = new ArrayList<>();
		for (AssertableReactiveWebApplicationContext context : instances) {
			ReactiveRateLimitFilter filter = context.getBean(ReactiveRateLimitFilter.class);
			assertThat(status(filter, "warm-up-" + UUID.randomUUID(), exchange()).block(Duration.ofSeconds(30)))
				.isEqualTo(200);
			for (int client = 0; client < CLIENTS_PER_INSTANCE; client++) {
				List<MockServerWebExchange> requests = new ArrayList<>();
				for (int request = 0; request < REQUESTS_PER_CLIENT; request++) {
					requests.add(exchange());
				}
				clients.add(Flux.fromIterable(requests)
					.concatMap((exchange) -> status(filter, credential, exchange))
					.subscribeOn(Schedulers.parallel()));
			}
		}
		return Flux.merge(clients).collectList().block(Duration.ofSeconds(60));
	}

	private static MockServerWebExchange exchange() {
		return MockServerWebExchange.from(MockServerHttpRequest.get("/api/items"));
	}

	private static Mono<Integer> status(ReactiveRateLimitFilter filter, String credential,
			MockServerWebExchange exchange) {
		return Mono.defer(() -> filter.filter(exchange, APPLICATION))
			.contextWrite(ReactiveSecurityContextHolder
				.withAuthentication(new TestingAuthenticationToken(credential, "n/a", "ROLE_USER")))
			.then(Mono.fromSupplier(() -> status(exchange)));
	}

	private static int status(MockServerWebExchange exchange) {
		if (exchange.getResponse().getHeaders().containsKey("X-RateLimit-Degraded")) {
			return DEGRADED;
		}
		return (exchange.getResponse().getStatusCode() != null) ? exchange.getResponse().getStatusCode().value() : 200;
	}

	/**
	 * Both instances decide in the same minute, wherever the wall clock happens to be
	 * when the test runs.
	 */
	@Configuration(proxyBeanMethods = false)
	static class FixedClock {

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
		}

	}

}
