package dev.limiter.autoconfigure.resilience;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The breaker's wiring beside resilience4j-spring-boot3 and without it: ordered after
 * Resilience4j's own auto-configuration, so that its registry (and its meters) are seen
 * whichever order the auto-configurations are listed in. Run by the starter's own
 * surefire execution that has resilience4j-spring-boot3 on the class path (the others
 * leave it out, so their applications keep the limiter's own breaker).
 */
@EnabledIf("resilience4jSpringBoot3Present")
class LimiterResilienceAutoConfigurationTests {

	static boolean resilience4jSpringBoot3Present() {
		return ClassUtils.isPresent(LimiterResilienceAutoConfiguration.RESILIENCE4J_BOOT3_CIRCUIT_BREAKER,
				LimiterResilienceAutoConfigurationTests.class.getClassLoader());
	}

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterResilienceAutoConfiguration.class));

	@Test
	void breakerWhenResilience4jSpringBoot3IsPresentShouldComeFromItsRegistryAndLeaveItTheMeters() {
		runner.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class))
			.withPropertyValues("resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=7s")
			.run(context -> {
				assertThat(context).hasNotFailed();
				CircuitBreaker breaker = context.getBean(LimiterResilienceAutoConfiguration.BREAKER_BEAN_NAME,
						CircuitBreaker.class);
				assertThat(context.getBean(CircuitBreakerRegistry.class).find("limiter")).containsSame(breaker);
				assertThat(breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1))
					.isEqualTo(7000L);
				assertThat(breaker.getCircuitBreakerConfig().getMinimumNumberOfCalls())
					.as("the limiter's defaults under the keys the application set")
					.isEqualTo(new LimiterCircuitBreakerSettings().getMinimumNumberOfCalls());
				assertThat(context).doesNotHaveBean("limiterCircuitBreakerMeterBinder");
			});
	}

	@Test
	void breakerWhenResilience4jSpringBoot3IsPresentAndTheInstanceIsNotConfiguredShouldKeepTheLimitersDefaults() {
		runner.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class)).run(context -> {
			assertThat(context).hasNotFailed();
			CircuitBreaker breaker = context.getBean(LimiterResilienceAutoConfiguration.BREAKER_BEAN_NAME,
					CircuitBreaker.class);
			assertThat(context.getBean(CircuitBreakerRegistry.class).find("limiter")).containsSame(breaker);
			assertThat(breaker.getCircuitBreakerConfig().getMinimumNumberOfCalls())
				.as("a handful of failures opens it, not Resilience4j's default 100")
				.isEqualTo(new LimiterCircuitBreakerSettings().getMinimumNumberOfCalls());
		});
	}

	@Test
	void breakerWhenResilience4jSpringBoot3IsAbsentShouldBeTheLimitersOwnWithItsMeters() {
		runner.withPropertyValues("resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=7s")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(CircuitBreakerRegistry.class);
				CircuitBreaker breaker = context.getBean(LimiterResilienceAutoConfiguration.BREAKER_BEAN_NAME,
						CircuitBreaker.class);
				assertThat(breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1))
					.isEqualTo(7000L);
				assertThat(context).hasBean("limiterCircuitBreakerMeterBinder");
			});
	}

	@Test
	void orderWhenReadShouldNameResilience4jSpringBoot3sAutoConfiguration() {
		assertThat(LimiterResilienceAutoConfiguration.RESILIENCE4J_BOOT3_CIRCUIT_BREAKER)
			.isEqualTo(CircuitBreakerAutoConfiguration.class.getName());
	}

}
