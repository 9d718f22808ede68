package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Window;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "At most the bound" across instances, for every algorithm: two stores (two instances,
 * each with its own connection factory and its own local over-limit memory) share one
 * Redis, 32 threads each take from one key at one instant, and exactly the bound is
 * admitted (a fixed or sliding window's limit, a token bucket's burst); on standalone
 * Redis, on the master a Sentinel names and on a three-master Cluster.
 */
@UsesRedisServer
class RedisAlgorithmExactnessTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	@RegisterExtension
	static RedisClusterExtension cluster = RedisClusterExtension.shared();

	private static final int THREADS_PER_INSTANCE = 32;

	private static final int REQUESTS_PER_THREAD = 12;

	private static final long NOW = 1_699_999_200_000L + 30_500;

	private static final List<Budget> BUDGETS = List.of(
			Budget.builder("exact-fixed").window("minute", 137, Duration.ofMinutes(1)).build(),
			Budget.builder("exact-sliding").window(Window.sliding("minute", 137, Duration.ofMinutes(1))).build(),
			Budget.builder("exact-bucket")
				.window(Window.tokenBucket("minute", 50, Duration.ofMinutes(1), 137))
				.build());

	@Test
	void twoInstancesWhenSharingAStandaloneRedisShouldAdmitExactlyTheBoundOfEveryAlgorithm() throws Exception {
		assertExact(redis::connectionFactory);
	}

	@Test
	void twoInstancesWhenSharingARedisClusterShouldAdmitExactlyTheBoundOfEveryAlgorithm() throws Exception {
		assertExact(cluster::connectionFactory);
	}

	@Test
	void twoInstancesWhenSharingTheMasterASentinelNamesShouldAdmitExactlyTheBoundOfEveryAlgorithm() throws Exception {
		try (RedisServerProcess master = RedisServerProcess.start();
				RedisServerProcess sentinel = RedisServerProcess.startSentinel("limiter-exact", master.port())) {
			List<RedisConnectionFactory> factories = new ArrayList<>();
			try {
				assertExact(() -> {
					RedisConnectionFactory factory = RedisClientKind.LETTUCE.sentinel("limiter-exact", sentinel);
					factories.add(factory);
					return factory;
				});
			}
			finally {
				factories.forEach(RedisClientKind::destroy);
			}
		}
	}

	private void assertExact(Supplier<RedisConnectionFactory> factories) throws Exception {
		List<RateLimitStore> instances = List.of(instance(factories.get()), instance(factories.get()));
		for (Budget budget : BUDGETS) {
			String key = "exact-" + UUID.randomUUID();
			ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_INSTANCE);
			try {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<Integer>> admitted = new ArrayList<>();
				for (RateLimitStore store : instances) {
					for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
						admitted.add(pool.submit(() -> {
							start.await();
							int count = 0;
							for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
								if (store.take(budget, key, 1, false, NOW).allowed()) {
									count++;
								}
							}
							return count;
						}));
					}
				}
				start.countDown();
				int total = 0;
				for (Future<Integer> f : admitted) {
					total += f.get(60, TimeUnit.SECONDS);
				}
				assertThat(total).as("admitted by %s", budget.windows().get(0).algorithm()).isEqualTo(137);
			}
			finally {
				pool.shutdownNow();
			}
		}
	}

	private static RateLimitStore instance(RedisConnectionFactory factory) {
		return new OverLimitRememberingStore(
				RedisRateLimitStore.builder(factory).timeout(RedisTestTimeouts.GENEROUS).build());
	}

}
