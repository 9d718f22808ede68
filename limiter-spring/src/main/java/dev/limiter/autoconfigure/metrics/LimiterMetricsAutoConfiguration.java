package dev.limiter.autoconfigure.metrics;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterProperties;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.core.RateLimitStore;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.metrics.MicrometerGuardEvents;
import dev.limiter.metrics.MicrometerOperatorMeters;
import dev.limiter.metrics.MicrometerRateLimitObserver;
import dev.limiter.metrics.QuotaThresholdMeters;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The limiter's Micrometer meters ({@code limiter.requests},
 * {@code limiter.store.latency}, {@code limiter.near.limit}, {@code limiter.fail.open},
 * {@code limiter.settlements}, ...) when Micrometer is on the classpath and the
 * application has a {@link MeterRegistry}. Micrometer is optional: without it this
 * configuration, and every meter, simply is not there.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class, afterName = {
		"org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" },
		before = LimiterServletAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnLimiterEnabled
@EnableConfigurationProperties(LimiterProperties.class)
public class LimiterMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public MicrometerRateLimitObserver limiterMeters(MeterRegistry registry, ObjectProvider<RateLimitStore> stores,
			LimiterProperties properties) {
		RateLimitStore store = stores.getIfAvailable();
		double threshold = properties.getMetrics().getNearLimitThreshold();
		if (!(threshold > 0 && threshold < 1)) {
			throw new InvalidLimiterConfigurationException("limiter.metrics.near-limit-threshold",
					"is " + threshold + "; it must be between 0 and 1 (exclusive), a share of a window left");
		}
		return new MicrometerRateLimitObserver(registry, store == null ? "none" : store.name(), threshold,
				properties.getMetrics().isStoreLatencyHistogram());
	}

	/** notify-at thresholds reached. */
	@Bean
	@ConditionalOnMissingBean
	public QuotaThresholdMeters limiterQuotaThresholdMeters(MeterRegistry registry) {
		return new QuotaThresholdMeters(registry);
	}

	/** Fail-open admissions and settlement outcomes. */
	@Bean
	@ConditionalOnMissingBean
	public MicrometerOperatorMeters limiterOperatorMeters(MeterRegistry registry,
			ObjectProvider<RateLimitStore> stores) {
		RateLimitStore store = stores.getIfAvailable();
		return new MicrometerOperatorMeters(registry, store == null ? "none" : store.name());
	}

	/** The authentication guard's refusals and blocks. */
	@Bean
	@ConditionalOnMissingBean
	public MicrometerGuardEvents limiterGuardMeters(MeterRegistry registry) {
		return new MicrometerGuardEvents(registry);
	}

	/**
	 * {@code limiter.budget.definitions} (identities cached) and
	 * {@code limiter.budget.definitions.evicted}, when an application defines budgets at
	 * run time.
	 */
	@Bean
	@ConditionalOnMissingBean(name = "limiterBudgetDefinitionMeters")
	public SmartInitializingSingleton limiterBudgetDefinitionMeters(MeterRegistry registry,
			ObjectProvider<BudgetDefinitions<?>> definitions) {
		// once every singleton exists: the application's selectors are never made early
		// for a meter
		return () -> {
			BudgetDefinitions<?> cached = definitions.getIfAvailable();
			if (cached != null && cached.any()) {
				MicrometerRateLimitObserver.bindBudgetDefinitions(registry, cached, (held) -> held.size(),
						(held) -> held.evictions(), cached.maxCached());
			}
		};
	}

}
