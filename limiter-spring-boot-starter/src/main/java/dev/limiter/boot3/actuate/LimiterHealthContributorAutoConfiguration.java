package dev.limiter.boot3.actuate;

import java.time.Clock;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.core.RateLimitStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code limiter} health component, when Spring Boot Actuator is present. */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnLimiterEnabled
@ConditionalOnBean(RateLimitStore.class)
@ConditionalOnEnabledHealthIndicator("limiter")
public class LimiterHealthContributorAutoConfiguration {

	@Bean(name = "limiterHealthIndicator")
	@ConditionalOnMissingBean(name = "limiterHealthIndicator")
	public LimiterHealthIndicator limiterHealthIndicator(RateLimitStore store,
			@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) ObjectProvider<Clock> clock) {
		return new LimiterHealthIndicator(store, clock.getIfAvailable(Clock::systemUTC));
	}

}
