package dev.limiter.boot4.actuate;

import java.time.Clock;

import dev.limiter.actuate.LimiterHealthDetails;
import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.core.RateLimitStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code limiter} health component on Spring Boot 4, whose health API moved to
 * {@code org.springframework.boot.health}: only an adapter, the details are
 * {@link LimiterHealthDetails}.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnLimiterEnabled
@ConditionalOnBean(RateLimitStore.class)
@ConditionalOnEnabledHealthIndicator("limiter")
public class LimiterHealthContributorAutoConfiguration {

	/**
	 * Always {@code UP}, also when degraded: a degraded limiter still serves and must
	 * stay in the load balancer.
	 */
	@Bean(name = "limiterHealthIndicator")
	@ConditionalOnMissingBean(name = "limiterHealthIndicator")
	public HealthIndicator limiterHealthIndicator(RateLimitStore store,
			@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) ObjectProvider<Clock> limiterClock) {
		Clock clock = limiterClock.getIfAvailable(Clock::systemUTC);
		return () -> Health.up().withDetails(LimiterHealthDetails.of(store, clock).details()).build();
	}

}
