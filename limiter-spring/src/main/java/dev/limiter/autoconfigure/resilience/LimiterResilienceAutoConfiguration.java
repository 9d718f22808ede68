package dev.limiter.autoconfigure.resilience;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.LimiterSettingsConfiguration;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.StoreMode;
import dev.limiter.core.StoreModeListener;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.resilience.FailurePolicy;
import dev.limiter.resilience.OutageLog;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * What happens when a remote store fails (docs/operations.md, ADR 0004): the
 * {@link FailurePolicy} bean (the rules themselves are read in
 * {@code dev.limiter.resilience}) around a Resilience4j circuit breaker named
 * {@code limiter}, the once-per-outage {@link OutageLog}, and the
 * {@code limiter.degraded} and {@code limiter.fallback.keys} gauges of the
 * {@link FailOpenRateLimitStore}.
 */
@AutoConfiguration(before = LimiterAutoConfiguration.class,
		afterName = { LimiterResilienceAutoConfiguration.RESILIENCE4J_BOOT3_CIRCUIT_BREAKER,
				LimiterResilienceAutoConfiguration.RESILIENCE4J_BOOT4_CIRCUIT_BREAKER })
@ConditionalOnLimiterEnabled
@Import(LimiterSettingsConfiguration.class)
public class LimiterResilienceAutoConfiguration {

	/**
	 * The breaker's instance name, as used in
	 * {@code resilience4j.circuitbreaker.instances.<name>.*} and meters.
	 */
	public static final String BREAKER_NAME = "limiter";

	/**
	 * resilience4j-spring-boot3's circuit breaker auto-configuration: it defines the
	 * {@link CircuitBreakerRegistry} that the conditions below look for, so this one runs
	 * after it.
	 */
	static final String RESILIENCE4J_BOOT3_CIRCUIT_BREAKER = "io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration";

	/**
	 * resilience4j-spring-boot4's twin of {@link #RESILIENCE4J_BOOT3_CIRCUIT_BREAKER}.
	 */
	static final String RESILIENCE4J_BOOT4_CIRCUIT_BREAKER = "io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration";

	/**
	 * Name of the limiter's circuit breaker bean; define one with this name to replace
	 * it.
	 */
	public static final String BREAKER_BEAN_NAME = "limiterCircuitBreaker";

	/**
	 * The breaker is configured by the starter's own reading of the standard
	 * {@code resilience4j.circuitbreaker.instances.limiter.*} keys over the limiter's
	 * defaults, with or without resilience4j-spring-boot3. When the application has a
	 * {@link CircuitBreakerRegistry}, the breaker is put in it (replacing the instance
	 * Resilience4j built from the same keys over its own defaults), so that Resilience4j
	 * meters and publishes it: its defaults (100 calls before the breaker may open) would
	 * make a request pay the store's timeout a hundred times per outage.
	 */
	@Bean(name = BREAKER_BEAN_NAME)
	@ConditionalOnMissingBean(name = BREAKER_BEAN_NAME)
	public CircuitBreaker limiterCircuitBreaker(ObjectProvider<CircuitBreakerRegistry> registries,
			Environment environment) {
		CircuitBreakerConfig config;
		try {
			config = LimiterCircuitBreakerSettings.bind(environment).toConfig();
		}
		catch (IllegalArgumentException e) {
			throw new InvalidLimiterConfigurationException(LimiterCircuitBreakerSettings.PREFIX, e.getMessage());
		}
		CircuitBreakerRegistry registry = registries.getIfUnique();
		if (registry == null) {
			return CircuitBreakerRegistry.of(config).circuitBreaker(BREAKER_NAME);
		}
		if (registry.find(BREAKER_NAME).isEmpty()) {
			return registry.circuitBreaker(BREAKER_NAME, config);
		}
		CircuitBreaker breaker = CircuitBreaker.of(BREAKER_NAME, config);
		registry.replace(BREAKER_NAME, breaker);
		return breaker;
	}

	@Bean
	@ConditionalOnMissingBean
	public StoreModeListener limiterStoreModeListener() {
		return OutageLog.storeModes();
	}

	@Bean
	@ConditionalOnMissingBean
	public FailurePolicy limiterFailurePolicy(LimiterSettings settings,
			@Qualifier(BREAKER_BEAN_NAME) CircuitBreaker limiterCircuitBreaker,
			ObjectProvider<StoreModeListener> listeners) {
		return new FailurePolicy(limiterCircuitBreaker, settings.fallbackMaxKeys(), settings.failClosedBudgets(),
				listeners.orderedStream().toList());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class DegradedMetersConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "limiterStoreModeMeterBinder")
		MeterBinder limiterStoreModeMeterBinder(ObjectProvider<RateLimitStore> stores) {
			return registry -> {
				RateLimitStore store = stores.getIfUnique();
				if (store instanceof FailOpenRateLimitStore failOpen) {
					Gauge.builder("limiter.degraded", failOpen, s -> s.mode() == StoreMode.DEGRADED ? 1 : 0)
						.description("1 while the limiter decides with its in-process fallback because the "
								+ "store cannot answer, else 0")
						.tag("store", failOpen.name())
						.register(registry);
					Gauge.builder("limiter.fallback.keys", failOpen, FailOpenRateLimitStore::fallbackKeys)
						.description("Keys held by the in-process fallback limiter")
						.tag("store", failOpen.name())
						.register(registry);
				}
			};
		}

	}

	/**
	 * Resilience4j's own breaker meters, unless resilience4j-spring-boot3 already
	 * publishes its registry.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ MeterBinder.class, TaggedCircuitBreakerMetrics.class })
	@ConditionalOnMissingBean(CircuitBreakerRegistry.class)
	static class BreakerMetersConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "limiterCircuitBreakerMeterBinder")
		MeterBinder limiterCircuitBreakerMeterBinder(@Qualifier(BREAKER_BEAN_NAME) CircuitBreaker breaker) {
			// Resilience4j meters a registry, not a breaker: a registry holding just this
			// one.
			CircuitBreakerRegistry single = CircuitBreakerRegistry.ofDefaults();
			single.circuitBreaker(breaker.getName());
			single.replace(breaker.getName(), breaker);
			return TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(single);
		}

	}

}
