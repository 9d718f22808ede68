package dev.limiter.boot4.actuate;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.core.RateLimitStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/** Registers the {@code limiter} health component when Spring Boot 4's health support is present. */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(RateLimitStore.class)
@ConditionalOnEnabledHealthIndicator("limiter")
public class LimiterHealthContributorAutoConfiguration {

    /** Named so that the component is {@code limiter} on both Boot lines. */
    @Bean(name = "limiterHealthIndicator")
    @ConditionalOnMissingBean(name = "limiterHealthIndicator")
    public LimiterHealthIndicator limiterHealthIndicator(RateLimitStore store) {
        return new LimiterHealthIndicator(store);
    }
}
