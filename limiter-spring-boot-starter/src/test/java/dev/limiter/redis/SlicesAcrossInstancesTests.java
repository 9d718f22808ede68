package dev.limiter.redis;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisMonitor;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code limiter.budgets.<b>.slices} as the auto-configuration wires it (ADR 0014): two
 * instances × 32 threads, one caller, a limit of 1,000 a minute and slices of at most 50,
 * on either client. At most the limit is admitted and at least the limit less two slices;
 * Redis sees far fewer script calls than requests; every admitted response's
 * {@code X-RateLimit-Remaining} is within the limit, and every refusal carries the
 * window's exact {@code Retry-After}.
 */
@UsesRedisServer
class SlicesAcrossInstancesTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final int LIMIT = 1_000;

	private static final int SLICE = 50;

	private static final int THREADS_PER_INSTANCE = 32;

	private static final int REQUESTS_PER_THREAD = 20;

	private final WebApplicationContextRunner instance = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class, LimiterResilienceAutoConfiguration.class,
				LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
				LimiterServletAutoConfiguration.class))
		.withClassLoader(new FilteredClassLoader("org.springframework.security"))
		.withUserConfiguration(FixedClock.class)
		.withPropertyValues("limiter.store=redis", "limiter.redis.timeout=10s",
				"limiter.budgets.standard.windows.minute.limit=" + LIMIT,
				"limiter.budgets.standard.slices.enabled=true", "limiter.budgets.standard.slices.max=" + SLICE,
				"limiter.budgets.standard.slices.ttl=10s",
				"spring.data.redis.jedis.pool.max-active=" + THREADS_PER_INSTANCE);

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void slicesWhenTwoInstancesShareAHotCallerShouldStayWithinTheLimitWithFewScriptCalls(RedisClientKind client)
			throws Exception {
		String caller = "caller-" + UUID.randomUUID();
		String[] properties = { "spring.data.redis.client-type=" + client.clientType(),
				"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port() };
		instance.withPropertyValues(properties).run(first -> instance.withPropertyValues(properties).run(second -> {
			for (AssertableWebApplicationContext context : List.of(first, second)) {
				call(context.getBean(RateLimitFilter.class), "warm-up-" + UUID.randomUUID());
			}
			try (RedisMonitor monitor = new RedisMonitor(redis.port())) {
				List<MockHttpServletResponse> responses = hammer(caller, first, second);
				List<String> commands = monitor.commandsUntilQuiet();

				List<MockHttpServletResponse> admitted = responses.stream()
					.filter((r) -> r.getStatus() == 200)
					.toList();
				assertThat(admitted).hasSizeLessThanOrEqualTo(LIMIT).hasSizeGreaterThanOrEqualTo(LIMIT - 2 * SLICE);
				assertThat(admitted).allSatisfy((r) -> assertThat(Long.parseLong(r.getHeader("X-RateLimit-Remaining")))
					.isBetween(0L, (long) LIMIT));
				assertThat(responses).filteredOn((r) -> r.getStatus() == 429)
					.isNotEmpty()
					.allSatisfy((r) -> assertThat(r.getHeader("Retry-After")).isEqualTo("30"));
				assertThat(commands.stream().filter((c) -> c.startsWith("eval")).count())
					.as("script calls for %d requests", responses.size())
					.isLessThan(LIMIT / 4);
			}
		}));
	}

	private static MockHttpServletResponse call(RateLimitFilter filter, String caller) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/items");
		request.setUserPrincipal(() -> caller);
		request.addHeader("Authorization", "Bearer " + caller);
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(request, response, (req, res) -> {
		});
		return response;
	}

	private static List<MockHttpServletResponse> hammer(String caller, AssertableWebApplicationContext... instances)
			throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(THREADS_PER_INSTANCE * instances.length);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<List<MockHttpServletResponse>>> futures = new ArrayList<>();
		try {
			for (AssertableWebApplicationContext context : instances) {
				RateLimitFilter filter = context.getBean(RateLimitFilter.class);
				for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
					futures.add(pool.submit(() -> {
						start.await();
						List<MockHttpServletResponse> responses = new ArrayList<>();
						for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
							responses.add(call(filter, caller));
						}
						return responses;
					}));
				}
			}
			start.countDown();
			List<MockHttpServletResponse> all = new ArrayList<>();
			for (Future<List<MockHttpServletResponse>> future : futures) {
				all.addAll(future.get(60, TimeUnit.SECONDS));
			}
			return all;
		}
		finally {
			pool.shutdownNow();
		}
	}

	/** Both instances decide in one minute, 30 s before its end. */
	@Configuration(proxyBeanMethods = false)
	static class FixedClock {

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
		}

	}

}
