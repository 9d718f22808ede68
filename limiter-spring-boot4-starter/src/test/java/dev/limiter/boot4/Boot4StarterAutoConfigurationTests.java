package dev.limiter.boot4;

import java.time.Duration;
import java.util.UUID;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.observation.LimiterObservationAutoConfiguration;
import dev.limiter.autoconfigure.openapi.LimiterOpenApiAutoConfiguration;
import dev.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import dev.limiter.autoconfigure.refresh.LimiterRefreshAutoConfiguration;
import dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration;
import dev.limiter.boot4.actuate.LimiterHealthContributorAutoConfiguration;
import dev.limiter.boot4.redis.Boot4ClusterTopologyRefreshCustomizer;
import dev.limiter.boot4.redis.Boot4LimiterLettuceAutoConfiguration;
import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.SlicedRateLimitStore;
import dev.limiter.observation.ObservedDecisions;
import dev.limiter.redis.RedisRateLimitStore;
import dev.limiter.resilience.CircuitBreakingRateLimitStore;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.spring.CurrentRateLimitRules;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Boot 4 wiring: the shared auto-configurations plus the Boot 4 health pair, on Boot
 * 4's own modules.
 */
@UsesRedisServer
class Boot4StarterAutoConfigurationTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(DataRedisAutoConfiguration.class, LimiterResilienceAutoConfiguration.class,
					LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
					LimiterServletAutoConfiguration.class, LimiterHealthContributorAutoConfiguration.class));

	@Test
	void observationsWhenARegistryExistsShouldFollowEveryDecisionOnBoot4() {
		runner.withConfiguration(AutoConfigurations.of(LimiterObservationAutoConfiguration.class))
			.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.run((context) -> {
				assertThat(context).hasSingleBean(ObservedDecisions.class);
				assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
					.contains(LimiterObservationAutoConfiguration.class.getName());
			});
	}

	@Test
	void lettuceWhenClusterOnBoot4ShouldRefreshTheTopologyByDefault() {
		runner.withConfiguration(AutoConfigurations.of(Boot4LimiterLettuceAutoConfiguration.class))
			.withPropertyValues("limiter.store=redis", "spring.data.redis.cluster.nodes=127.0.0.1:1")
			.run(context -> {
				LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration
					.builder()
					.clientOptions(ClusterClientOptions.create());
				context.getBean(Boot4ClusterTopologyRefreshCustomizer.class).customize(builder);
				ClusterClientOptions options = (ClusterClientOptions) builder.build().getClientOptions().orElseThrow();
				assertThat(options.getTopologyRefreshOptions().isPeriodicRefreshEnabled()).isTrue();
				assertThat(options.getTopologyRefreshOptions().getAdaptiveRefreshTriggers()).isNotEmpty();
			});
	}

	@Test
	void lettuceWhenTheApplicationSetsItsRefreshOnBoot4ShouldLeaveItAlone() {
		runner.withConfiguration(AutoConfigurations.of(Boot4LimiterLettuceAutoConfiguration.class))
			.withPropertyValues("limiter.store=redis", "spring.data.redis.cluster.nodes=127.0.0.1:1",
					"spring.data.redis.lettuce.cluster.refresh.period=30s")
			.run(context -> {
				LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration
					.builder()
					.clientOptions(ClusterClientOptions.create());
				context.getBean(Boot4ClusterTopologyRefreshCustomizer.class).customize(builder);
				ClusterClientOptions options = (ClusterClientOptions) builder.build().getClientOptions().orElseThrow();
				assertThat(options.getTopologyRefreshOptions().isPeriodicRefreshEnabled()).isFalse();
			});
	}

	@Test
	void healthIndicatorWhenBootHealthPresentShouldReportTheStore() {
		runner.run(context -> {
			assertThat(context).hasNotFailed();
			Health health = context.getBean("limiterHealthIndicator", HealthIndicator.class).health(true);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("store", "memory").containsEntry("mode", "authoritative");
		});
	}

	@Test
	void healthIndicatorWhenBootHealthAbsentShouldBackOff() {
		runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean("limiterHealthIndicator");
			assertThat(context).hasSingleBean(RateLimitFilter.class);
		});
	}

	@Test
	void healthIndicatorWhenDisabledByBootPropertyShouldBackOff() {
		runner.withPropertyValues("management.health.limiter.enabled=false")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("limiterHealthIndicator"));
	}

	@Test
	void storeWhenRedisOnBoot4ShouldCountInTheApplicationsRedis() {
		// A generous timeout: a cold connection must not send this one decision to the
		// fallback.
		runner
			.withPropertyValues("limiter.store=redis", "limiter.redis.key-prefix=boot4wired",
					"limiter.redis.timeout=5s", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + redis.port())
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
				Budget budget = Budget.builder("boot4").window("minute", 5, Duration.ofMinutes(1)).build();
				String key = UUID.randomUUID().toString();
				assertThat(store.take(budget, key, 1, false, System.currentTimeMillis()).degraded()).isFalse();
				assertThat(((Number) redis.server().call("DBSIZE")).longValue()).isPositive();
				assertThat(context.getBean("limiterHealthIndicator", HealthIndicator.class).health(true).getDetails())
					.containsEntry("store", "redis")
					.containsEntry("circuitBreaker", "CLOSED");
			});
	}

	@Test
	void limiterWhenDisabledShouldBackOff() {
		runner.withPropertyValues("limiter.enabled=false").run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(RateLimitFilter.class);
			assertThat(context).doesNotHaveBean(RateLimitStore.class);
			assertThat(context).doesNotHaveBean("limiterHealthIndicator");
		});
	}

	@Test
	void healthWhenLimiterDisabledShouldBackOffEvenBesideTheApplicationsOwnStore() {
		runner.withPropertyValues("limiter.enabled=false")
			.withBean("applicationStore", RateLimitStore.class, () -> RateLimitStores.inMemory(10))
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(RateLimitStore.class);
				assertThat(context).doesNotHaveBean("limiterHealthIndicator");
			});
	}

	@Test
	void breakerMetersWhenResilience4jSpringBoot4IsPresentShouldBeLeftToIt() {
		runner.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class)).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(CircuitBreakerRegistry.class);
			assertThat(context).doesNotHaveBean("limiterCircuitBreakerMeterBinder");
		});
	}

	@Test
	void breakerMetersWhenResilience4jSpringBoot4IsAbsentShouldBeTheLimitersOwn() {
		runner.run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(CircuitBreakerRegistry.class);
			assertThat(context).hasBean("limiterCircuitBreakerMeterBinder");
		});
	}

	@Test
	void breakerWhenResilience4jBootIntegrationIsAbsentShouldReadTheStandardInstanceKeys() {
		runner
			.withPropertyValues("resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=7s",
					"resilience4j.circuitbreaker.instances.limiter.failure-rate-threshold=25")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(CircuitBreakerRegistry.class);
				CircuitBreaker breaker = context.getBean(LimiterResilienceAutoConfiguration.BREAKER_BEAN_NAME,
						CircuitBreaker.class);
				assertThat(breaker.getName()).isEqualTo("limiter");
				assertThat(breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1))
					.isEqualTo(7000L);
				assertThat(breaker.getCircuitBreakerConfig().getFailureRateThreshold()).isEqualTo(25f);
			});
	}

	@Test
	void breakerWhenResilience4jSpringBoot4IsPresentShouldComeFromItsRegistry() {
		runner.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class))
			.withPropertyValues("resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=7s")
			.run(context -> {
				assertThat(context).hasNotFailed();
				CircuitBreaker breaker = context.getBean(LimiterResilienceAutoConfiguration.BREAKER_BEAN_NAME,
						CircuitBreaker.class);
				assertThat(context.getBean(CircuitBreakerRegistry.class).find("limiter")).containsSame(breaker);
				assertThat(breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1))
					.isEqualTo(7000L);
			});
	}

	@Test
	void importsWhenReadShouldListTheBoot4HealthConfigurationAndNoBoot3One() {
		java.util.List<String> imports = ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
			.getCandidates();
		assertThat(imports)
			.contains(LimiterHealthContributorAutoConfiguration.class.getName(),
					LimiterAutoConfiguration.class.getName(), LimiterRedisAutoConfiguration.class.getName())
			.doesNotContain("dev.limiter.autoconfigure.actuate.LimiterHealthContributorAutoConfiguration",
					"dev.limiter.autoconfigure.redis.LimiterLettuceAutoConfiguration");
	}

	@Test
	void integrationsWhenSpringdocAndSpringCloudAreAbsentOnBoot4ShouldBeListedAndBackOff() {
		java.util.List<String> imports = ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
			.getCandidates();
		// springdoc's and Spring Cloud's types are not on this class path: named, not
		// loaded
		assertThat(imports).contains(LimiterOpenApiAutoConfiguration.class.getName(),
				LimiterRefreshAutoConfiguration.class.getName());
		runner
			.withConfiguration(
					AutoConfigurations.of(LimiterOpenApiAutoConfiguration.class, LimiterRefreshAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springdoc", "io.swagger", "org.springframework.cloud"))
			.run(context -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("limiterOpenApiCustomizer")
				.doesNotHaveBean("limiterSettingsRefresh")
				.doesNotHaveBean("limiterEnvironmentChangeRefresh")
				.hasSingleBean(CurrentRateLimitRules.class));
	}

}
