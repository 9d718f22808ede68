package dev.limiter.redis;

import java.time.Duration;
import java.util.UUID;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration;
import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.SlicedRateLimitStore;
import dev.limiter.core.StoreMode;
import dev.limiter.resilience.CircuitBreakingRateLimitStore;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
@UsesRedisServer
class LimiterRedisAutoConfigurationTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	@RegisterExtension
	static RedisClusterExtension cluster = RedisClusterExtension.shared();

	private static final Budget BUDGET = Budget.builder("wiring").window("minute", 5, Duration.ofMinutes(1)).build();

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class, LimiterResilienceAutoConfiguration.class,
				LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
				LimiterServletAutoConfiguration.class))
		.withClassLoader(new FilteredClassLoader("org.springframework.security"));

	@Test
	void storeWhenRedisShouldCountInTheApplicationsStandaloneRedis() {
		runner
			.withPropertyValues("limiter.store=redis", "limiter.redis.key-prefix=wired",
					"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port())
			.run(context -> {
				assertThat(context).hasNotFailed();
				RateLimitStore store = context.getBean(LimiterAutoConfiguration.STORE_BEAN_NAME, RateLimitStore.class);
				assertThat(store).isInstanceOfSatisfying(FailOpenRateLimitStore.class, failOpen -> {
					assertThat(failOpen.front()).isInstanceOf(SlicedRateLimitStore.class);
					assertThat(failOpen.authoritative()).isInstanceOfSatisfying(CircuitBreakingRateLimitStore.class,
							breaking -> assertThat(breaking.delegate()).isInstanceOfSatisfying(
									OverLimitRememberingStore.class, remembering -> assertThat(remembering.delegate())
										.isInstanceOf(RedisRateLimitStore.class)));
				});
				assertThat(store.name()).isEqualTo("redis");
				String key = UUID.randomUUID().toString();

				store.take(BUDGET, key, 1, false, System.currentTimeMillis());

				String windowKey = new RedisKeys("wired").all(BUDGET, key).get(0);
				assertThat(redis.server().call("EXISTS", windowKey)).isEqualTo(1L);
			});
	}

	@Test
	void storeWhenJedisIsTheClientAndLettuceIsFilteredOutShouldCountInRedisThroughJedis() {
		runner.withClassLoader(new FilteredClassLoader("org.springframework.security", "io.lettuce"))
			.withPropertyValues("limiter.store=redis", "limiter.redis.key-prefix=jedis-wired",
					"spring.data.redis.client-type=jedis", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + redis.port())
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(org.springframework.data.redis.connection.RedisConnectionFactory.class))
					.isInstanceOf(JedisConnectionFactory.class);
				RateLimitStore store = context.getBean(LimiterAutoConfiguration.STORE_BEAN_NAME, RateLimitStore.class);
				String key = UUID.randomUUID().toString();
				long now = System.currentTimeMillis();

				for (int i = 0; i < 5; i++) {
					assertThat(store.take(BUDGET, key, 1, false, now).allowed()).isTrue();
				}
				assertThat(store.take(BUDGET, key, 1, false, now).allowed()).isFalse();

				String windowKey = new RedisKeys("jedis-wired").all(BUDGET, key).get(0);
				assertThat(redis.server().call("EXISTS", windowKey)).isEqualTo(1L);
				assertThat(((FailOpenRateLimitStore) store).mode()).isEqualTo(StoreMode.AUTHORITATIVE);
			});
	}

	@Test
	void storeWhenRedisShouldAnswerARefusalLoopWithoutAskingRedis() {
		// A long timeout: when this runs first, the first calls also pay Lettuce's
		// warm-up, which must not open
		// the breaker on a loaded machine; this test is about the over-limit memory, not
		// about timeouts.
		runner
			.withPropertyValues("limiter.store=redis", "limiter.redis.key-prefix=remembered",
					"limiter.redis.timeout=10s", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + redis.port())
			.run(context -> {
				RateLimitStore store = context.getBean(LimiterAutoConfiguration.STORE_BEAN_NAME, RateLimitStore.class);
				String key = UUID.randomUUID().toString();
				long now = System.currentTimeMillis();
				for (int i = 0; i <= 5; i++) {
					store.take(BUDGET, key, 1, false, now);
				}
				// Behind the store's back: Redis alone would now admit the key again.
				redis.server().call("DEL", new RedisKeys("remembered").all(BUDGET, key).get(0));

				boolean refusedFromMemory = !store.take(BUDGET, key, 1, false, now).allowed();
				store.reset(BUDGET, key);

				assertThat(refusedFromMemory).isTrue();
				assertThat(store.take(BUDGET, key, 1, false, now).allowed()).isTrue();
			});
	}

	@Test
	void storeWhenRedisShouldCountInTheApplicationsRedisCluster() {
		runner
			.withPropertyValues("limiter.store=redis",
					"spring.data.redis.cluster.nodes=" + String.join(",", cluster.cluster().addresses()))
			.run(context -> {
				assertThat(context).hasNotFailed();
				RateLimitStore store = context.getBean(RateLimitStore.class);
				String key = UUID.randomUUID().toString();

				store.take(BUDGET, key, 1, false, System.currentTimeMillis());

				String windowKey = new RedisKeys("limiter").all(BUDGET, key).get(0);
				assertThat(cluster.cluster().nodeFor(windowKey).call("EXISTS", windowKey)).isEqualTo(1L);
			});
	}

	@Test
	void storeWhenRedisShouldCountInTheMasterThatSentinelNames() {
		try (RedisServerProcess master = RedisServerProcess.start();
				RedisServerProcess sentinel = RedisServerProcess.startSentinel("limiter-master", master.port())) {
			runner
				.withPropertyValues("limiter.store=redis", "spring.data.redis.sentinel.master=limiter-master",
						"spring.data.redis.sentinel.nodes=" + sentinel.address())
				.run(context -> {
					assertThat(context).hasNotFailed();
					RateLimitStore store = context.getBean(RateLimitStore.class);
					String key = UUID.randomUUID().toString();

					store.take(BUDGET, key, 1, false, System.currentTimeMillis());

					String windowKey = new RedisKeys("limiter").all(BUDGET, key).get(0);
					assertThat(master.call("EXISTS", windowKey)).isEqualTo(1L);
				});
		}
	}

	@Test
	void storeWhenRedisWithoutAConnectionFactoryShouldFailNamingThePropertyAndTheMissingBean() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(LimiterResilienceAutoConfiguration.class, LimiterRedisAutoConfiguration.class,
							LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class))
			.withPropertyValues("limiter.store=redis")
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("limiter.store")
					.hasMessageContaining("no single RedisConnectionFactory bean")
					.hasMessageContaining("spring-boot-starter-data-redis");
			});
	}

	@Test
	void storeWhenRedisWithoutSpringDataRedisShouldFailNamingTheDependency() {
		runner
			.withClassLoader(new FilteredClassLoader("org.springframework.data.redis", "io.lettuce",
					"org.springframework.security"))
			.withPropertyValues("limiter.store=redis")
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("limiter.store")
					.hasMessageContaining("spring-data-redis is not on the classpath")
					.hasMessageContaining("spring-boot-starter-data-redis");
			});
	}

	@Test
	void storeWhenMemoryWithoutSpringDataRedisShouldNeverTouchARedisClass() {
		runner
			.withClassLoader(new FilteredClassLoader("org.springframework.data.redis", "io.lettuce",
					"org.springframework.security"))
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RateLimitStore.class).name()).isEqualTo("memory");
			});
	}

	@Test
	void storeWhenMemoryShouldIgnoreAnAvailableRedis() {
		runner.withPropertyValues("spring.data.redis.port=" + redis.port()).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(RateLimitStore.class).name()).isEqualTo("memory");
			assertThat(context).doesNotHaveBean(RedisRateLimitStore.class);
		});
	}

	@Test
	void storeWhenRedisAndTheUserDefinesOneShouldBackOff() {
		runner.withPropertyValues("limiter.store=redis", "spring.data.redis.port=" + redis.port())
			.withUserConfiguration(UserStore.class)
			.run(context -> {
				assertThat(context).hasSingleBean(RateLimitStore.class);
				assertThat(context.getBean(RateLimitStore.class)).isSameAs(context.getBean("userStore"));
			});
	}

	@Test
	void storeWhenTheKeyPrefixWouldBreakTheHashTagShouldFailNamingTheProperty() {
		runner
			.withPropertyValues("limiter.store=redis", "limiter.redis.key-prefix=a{b}",
					"spring.data.redis.port=" + redis.port())
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("limiter.redis.key-prefix");
			});
	}

	@Test
	void storeWhenRedisTimeoutIsZeroShouldFailNamingTheTimeoutNotTheKeyPrefix() {
		runner
			.withPropertyValues("limiter.store=redis", "limiter.redis.timeout=0s",
					"spring.data.redis.port=" + redis.port())
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("limiter.redis.timeout")
					.hasMessageNotContaining("key-prefix");
			});
	}

	@Test
	void startupWhenTheStoreIsRedisShouldLogItOnce(CapturedOutput output) {
		runner.withPropertyValues("limiter.store=redis", "spring.data.redis.port=" + redis.port()).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(output.getOut().split("Limiter counting in store 'redis'", -1)).hasSize(2);
		});
	}

	@Test
	void redisAutoConfigurationWhenImportsAreReadShouldBeListed() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
			.contains(LimiterRedisAutoConfiguration.class.getName());
	}

	@Configuration(proxyBeanMethods = false)
	static class UserStore {

		@Bean
		RateLimitStore userStore() {
			return RateLimitStores.inMemory(10);
		}

	}

}
