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
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import jakarta.servlet.FilterChain;
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

/**
 * "At most the bound" across instances for the sliding window and the token bucket, as
 * {@link RedisExactnessAcrossInstancesTests} shows it for the fixed window: two
 * application contexts share one Redis, 32 threads each hammer one token through the
 * servlet filter, and exactly the bound is admitted (the sliding window's limit, the
 * bucket's burst: the clock stands still, so nothing refills); on standalone Redis and on
 * a three-master Cluster.
 */
@UsesRedisServer
class RedisAlgorithmExactnessAcrossInstancesTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	@RegisterExtension
	static RedisClusterExtension cluster = RedisClusterExtension.shared();

	private static final int LIMIT = 137;

	private static final int THREADS_PER_INSTANCE = 32;

	private static final int REQUESTS_PER_THREAD = 12;

	private final WebApplicationContextRunner instance = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class,
				dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration.class,
				LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
				LimiterServletAutoConfiguration.class))
		.withClassLoader(new FilteredClassLoader("org.springframework.security"))
		.withUserConfiguration(FixedClock.class)
		.withPropertyValues("limiter.store=redis");

	private static final String[] SLIDING = { "limiter.budgets.standard.windows.minute.limit=" + LIMIT,
			"limiter.budgets.standard.windows.minute.algorithm=sliding-window" };

	private static final String[] BUCKET = { "limiter.budgets.standard.windows.minute.limit=60",
			"limiter.budgets.standard.windows.minute.algorithm=token-bucket",
			"limiter.budgets.standard.windows.minute.burst=" + LIMIT };

	@Test
	void slidingWindowWhenTwoInstancesShareAStandaloneRedisShouldAdmitExactlyTheLimit() throws Exception {
		assertExactAcrossTwoInstances(SLIDING, standalone());
	}

	@Test
	void slidingWindowWhenTwoInstancesShareARedisClusterShouldAdmitExactlyTheLimit() throws Exception {
		assertExactAcrossTwoInstances(SLIDING, cluster());
	}

	@Test
	void tokenBucketWhenTwoInstancesShareAStandaloneRedisShouldAdmitExactlyTheBurst() throws Exception {
		assertExactAcrossTwoInstances(BUCKET, standalone());
	}

	@Test
	void tokenBucketWhenTwoInstancesShareARedisClusterShouldAdmitExactlyTheBurst() throws Exception {
		assertExactAcrossTwoInstances(BUCKET, cluster());
	}

	private static String[] standalone() {
		return new String[] { "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port() };
	}

	private static String[] cluster() {
		return new String[] { "spring.data.redis.cluster.nodes=" + String.join(",", cluster.cluster().addresses()) };
	}

	private void assertExactAcrossTwoInstances(String[] algorithm, String[] redisProperties) throws Exception {
		String token = "tok-" + UUID.randomUUID();
		WebApplicationContextRunner configured = instance.withPropertyValues(algorithm)
			.withPropertyValues(redisProperties);
		configured.run(first -> configured.run(second -> {
			assertThat(first.getBean(RateLimitFilter.class)).isNotSameAs(second.getBean(RateLimitFilter.class));
			List<Integer> statuses = hammer(token, first, second);

			assertThat(statuses).hasSize(2 * THREADS_PER_INSTANCE * REQUESTS_PER_THREAD);
			assertThat(statuses).filteredOn(s -> s == 200).hasSize(LIMIT);
			assertThat(statuses).filteredOn(s -> s == 429).hasSize(statuses.size() - LIMIT);
		}));
	}

	private static List<Integer> hammer(String token, AssertableWebApplicationContext... instances) throws Exception {
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
							MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/items");
							// One caller per test: the tests share one Redis and one
							// minute.
							request.setUserPrincipal(() -> token);
							request.addHeader("Authorization", "Bearer " + token);
							MockHttpServletResponse response = new MockHttpServletResponse();
							FilterChain application = (req, res) -> {
							};
							filter.doFilter(request, response, application);
							statuses.add(response.getStatus());
						}
						return statuses;
					}));
				}
			}
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
