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
import jakarta.servlet.FilterChain;
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
 * Refusals after exhaustion cost Redis nothing at any concurrency: two instances, 32
 * threads each, one caller, a limit of 50; MONITOR sees the 50 admissions and at most one
 * decision per thread that was already on its way when the window ran out, on either
 * client. The instance whose admission left the window at 0 sends nothing more at all,
 * one request or 32 threads at once: that admission is remembered like a refusal.
 */
@UsesRedisServer
class RefusalsAfterExhaustionTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final int LIMIT = 50;

	private static final int THREADS_PER_INSTANCE = 32;

	private static final int REQUESTS_PER_THREAD = 7;

	private final WebApplicationContextRunner instance = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class, LimiterResilienceAutoConfiguration.class,
				LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
				LimiterServletAutoConfiguration.class))
		.withClassLoader(new FilteredClassLoader("org.springframework.security"))
		.withUserConfiguration(FixedClock.class)
		.withPropertyValues("limiter.store=redis", "limiter.redis.timeout=10s",
				"limiter.budgets.standard.windows.minute.limit=" + LIMIT,
				"spring.data.redis.jedis.pool.max-active=" + THREADS_PER_INSTANCE);

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void refusalsWhenTheWindowIsExhaustedUnderConcurrencyShouldNotReachRedis(RedisClientKind client) throws Exception {
		String caller = "caller-" + UUID.randomUUID();
		String[] properties = { "spring.data.redis.client-type=" + client.clientType(),
				"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port() };
		instance.withPropertyValues(properties).run(first -> instance.withPropertyValues(properties).run(second -> {
			// One decision each before MONITOR starts: connecting and loading the scripts
			// are start-up's business.
			for (AssertableWebApplicationContext context : List.of(first, second)) {
				context.getBean(RateLimitFilter.class)
					.doFilter(request("warm-up-" + UUID.randomUUID()), new MockHttpServletResponse(), (req, res) -> {
					});
			}
			try (RedisMonitor monitor = new RedisMonitor(redis.port())) {
				List<Integer> statuses = hammer(caller, first, second);
				List<String> commands = monitor.commandsUntilQuiet();

				assertThat(statuses).hasSize(2 * THREADS_PER_INSTANCE * REQUESTS_PER_THREAD);
				assertThat(statuses).filteredOn(s -> s == 200).hasSize(LIMIT);
				assertThat(commands.stream().filter(c -> c.startsWith("eval")).count())
					.as("decisions that reached Redis: the admissions, and those already sent when the window "
							+ "ran out")
					.isGreaterThanOrEqualTo(LIMIT)
					.isLessThanOrEqualTo(LIMIT + 2 * THREADS_PER_INSTANCE);
				assertThat(commands).as("every command Redis saw (no guard here: Spring Security is absent)")
					.hasSizeLessThanOrEqualTo(LIMIT + 2 * THREADS_PER_INSTANCE);
			}
		}));
	}

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void refusalsWhenThisInstanceAdmittedTheLastUnitShouldNotReachRedisAtAnyConcurrency(RedisClientKind client)
			throws Exception {
		String caller = "caller-" + UUID.randomUUID();
		String[] properties = { "spring.data.redis.client-type=" + client.clientType(),
				"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port() };
		instance.withPropertyValues(properties).run(first -> instance.withPropertyValues(properties).run(second -> {
			// The 50 admissions, one at a time, alternately: the first instance takes the
			// last unit and has seen no refusal.
			for (int i = 0; i < LIMIT; i++) {
				assertThat(status(i % 2 == 0 ? second : first, caller)).isEqualTo(200);
			}
			try (RedisMonitor monitor = new RedisMonitor(redis.port())) {
				assertThat(status(first, caller)).as("the 51st request").isEqualTo(429);
				assertThat(monitor.commandsUntilQuiet())
					.as("what the 51st sent: the admission that left the window " + "at 0 is remembered like a refusal")
					.isEmpty();

				List<Integer> statuses = hammer(caller, first);

				assertThat(statuses).containsOnly(429);
				assertThat(monitor.commandsUntilQuiet()).as("what 32 threads sent after the last admission").isEmpty();

				List<Integer> elsewhere = hammer(caller, second);

				assertThat(elsewhere).containsOnly(429);
				assertThat(monitor.commandsUntilQuiet())
					.as("the other instance: at most its decisions on their way when its first refusal came back")
					.isNotEmpty()
					.hasSizeLessThanOrEqualTo(THREADS_PER_INSTANCE)
					.containsOnly("evalsha");
			}
		}));
	}

	private static int status(AssertableWebApplicationContext context, String caller) throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();
		context.getBean(RateLimitFilter.class).doFilter(request(caller), response, (req, res) -> {
		});
		return response.getStatus();
	}

	private static List<Integer> hammer(String caller, AssertableWebApplicationContext... instances) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(THREADS_PER_INSTANCE * instances.length);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<List<Integer>>> futures = new ArrayList<>();
		try {
			for (AssertableWebApplicationContext context : instances) {
				RateLimitFilter filter = context.getBean(RateLimitFilter.class);
				for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
					futures.add(pool.submit(() -> {
						start.await();
						List<Integer> statuses = new ArrayList<>();
						for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
							MockHttpServletResponse response = new MockHttpServletResponse();
							FilterChain application = (req, res) -> {
							};
							filter.doFilter(request(caller), response, application);
							statuses.add(response.getStatus());
						}
						return statuses;
					}));
				}
			}
			Thread.sleep(300);
			start.countDown();
			List<Integer> all = new ArrayList<>();
			for (Future<List<Integer>> future : futures) {
				all.addAll(future.get(60, TimeUnit.SECONDS));
			}
			return all;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static MockHttpServletRequest request(String caller) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/items");
		request.setUserPrincipal(() -> caller);
		request.addHeader("Authorization", "Bearer " + caller);
		return request;
	}

	/** Both instances decide in one minute, whatever the wall clock does. */
	@Configuration(proxyBeanMethods = false)
	static class FixedClock {

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
		}

	}

}
