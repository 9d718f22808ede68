package dev.limiter.boot4.actuate;

import dev.limiter.actuate.LimiterHealthDetails;
import dev.limiter.core.RateLimitStore;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code limiter} health component on Spring Boot 4, whose health API moved to
 * {@code org.springframework.boot.health.contributor}; the details come from {@link LimiterHealthDetails}.
 */
public class LimiterHealthIndicator extends AbstractHealthIndicator {

    private final RateLimitStore limiterStore;

    public LimiterHealthIndicator(RateLimitStore limiterStore) {
        super("Limiter health check failed");
        this.limiterStore = limiterStore;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        // Always UP, also when degraded: a degraded limiter still serves and must not leave the load balancer.
        builder.up().withDetails(LimiterHealthDetails.of(limiterStore).details());
    }
}
