package dev.limiter.servlet;

import java.time.Clock;
import java.time.Duration;
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
import dev.limiter.core.Budget;
import dev.limiter.core.RateLimitStore;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitUsage;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
import static org.awaitility.Awaitility.await;

/**
 * Reserve and settle across instances through the whole stack (the filter, the
 * auto-configured store with its over-limit memory, breaker and fallback, Lettuce): two
 * application contexts share one Redis, 32 threads each send requests on one key whose
 * handlers report an actual amount, and every settlement is sent without waiting. The
 * store ends up counting exactly the actual amounts reported; where the tokens limit
 * binds, what was admitted exceeds it by no more than the overshoot of the requests in
 * flight at once (each fitted its estimate; its actual amount may not have).
 */
@UsesRedisServer
class ReserveSettleAcrossInstancesRedisTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private static final int THREADS_PER_INSTANCE = 32;

	private static final int REQUESTS_PER_THREAD = 10;

	private static final long ESTIMATE = 10;

	private static final long MAX_ACTUAL = 40;

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:30Z");

	private final WebApplicationContextRunner instance = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class, LimiterResilienceAutoConfiguration.class,
				LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
				LimiterServletAutoConfiguration.class))
		.withClassLoader(new FilteredClassLoader("org.springframework.security"))
		.withUserConfiguration(FixedClockAndKeys.class)
		.withPropertyValues("limiter.store=redis", "limiter.redis.timeout=10s", "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=" + redis.port(), "limiter.budgets.completion.windows.minute.limit=100000",
				"limiter.budgets.completion.windows.minute.duration=1m",
				"limiter.budgets.completion.windows.tokens.duration=1m",
				"limiter.budgets.completion.windows.tokens.unit=tokens", "limiter.routes[0].pattern=/complete",
				"limiter.routes[0].budget=completion", "limiter.routes[0].estimates.tokens=" + ESTIMATE);

	@Test
	void twoInstancesWhenSettlingConcurrentlyShouldCountEveryActualAmountExactly() throws Exception {
		long big = 1_000_000;
		String key = "t:across-" + UUID.randomUUID();
		WebApplicationContextRunner configured = instance
			.withPropertyValues("limiter.budgets.completion.windows.tokens.limit=" + big);
		configured.run((first) -> configured.run((second) -> {
			Run run = hammer(key, first, second);

			assertThat(run.admitted()).isEqualTo(2 * THREADS_PER_INSTANCE * REQUESTS_PER_THREAD);
			// the last settlements are on their way: wait until they landed, then the
			// count is the sum of what was reported, each once
			await().atMost(Duration.ofSeconds(30)).until(() -> counted(first, key, big) == run.actualSum());
			assertThat(counted(second, key, big)).isEqualTo(run.actualSum());
		}));
	}

	@Test
	void twoInstancesWhenTheLimitBindsShouldAdmitNoMoreThanTheLimitAndTheOvershootInFlight() throws Exception {
		long limit = 5_000;
		String key = "t:across-" + UUID.randomUUID();
		WebApplicationContextRunner configured = instance
			.withPropertyValues("limiter.budgets.completion.windows.tokens.limit=" + limit);
		configured.run((first) -> configured.run((second) -> {
			Run run = hammer(key, first, second);

			long inFlight = 2L * THREADS_PER_INSTANCE;
			assertThat(run.admitted()).isLessThan(2 * THREADS_PER_INSTANCE * REQUESTS_PER_THREAD);
			assertThat(run.actualSum()).isLessThanOrEqualTo(limit + inFlight * (MAX_ACTUAL - ESTIMATE));
		}));
	}

	private static long counted(AssertableWebApplicationContext context, String key, long limit) {
		Budget budget = context.getBean(BudgetRegistry.class).get("completion");
		long remaining = context.getBean(RateLimitStore.class)
			.peek(budget, key, NOW.toEpochMilli())
			.bounds()
			.stream()
			.filter((bound) -> bound.name().equals("tokens"))
			.findFirst()
			.orElseThrow()
			.remaining();
		return limit - remaining;
	}

	private static Run hammer(String key, AssertableWebApplicationContext... instances) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(THREADS_PER_INSTANCE * instances.length);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<long[]>> futures = new ArrayList<>();
		try {
			for (AssertableWebApplicationContext context : instances) {
				RateLimitFilter filter = context.getBean(RateLimitFilter.class);
				for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
					int thread = t;
					futures.add(pool.submit(() -> {
						start.await();
						long admitted = 0;
						long sum = 0;
						for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
							long actual = (thread * 31L + i * 17L) % (MAX_ACTUAL + 1);
							MockHttpServletRequest request = new MockHttpServletRequest("POST", "/complete");
							request.addHeader(FixedClockAndKeys.KEY_HEADER, key);
							MockHttpServletResponse response = new MockHttpServletResponse();
							filter.doFilter(request, response,
									(req, res) -> RateLimitUsage.report(req, "tokens", actual));
							if (response.getStatus() == 200) {
								admitted++;
								sum += actual;
							}
						}
						return new long[] { admitted, sum };
					}));
				}
			}
			start.countDown();
			long admitted = 0;
			long sum = 0;
			for (Future<long[]> future : futures) {
				long[] result = future.get(120, TimeUnit.SECONDS);
				admitted += result[0];
				sum += result[1];
			}
			return new Run(admitted, sum);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/** How many requests were admitted, and the sum of their actual amounts. */
	record Run(long admitted, long actualSum) {
	}

	/**
	 * Both instances decide in the same minute, wherever the wall clock is; each request
	 * names its key.
	 */
	@Configuration(proxyBeanMethods = false)
	static class FixedClockAndKeys {

		static final String KEY_HEADER = "X-Test-Key";

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME)
		Clock limiterClock() {
			return Clock.fixed(NOW, ZoneOffset.UTC);
		}

		@Bean
		KeyResolver keyResolver() {
			return (request) -> CallerKey.authenticated(request.getHeader(KEY_HEADER), () -> "tester");
		}

	}

}
