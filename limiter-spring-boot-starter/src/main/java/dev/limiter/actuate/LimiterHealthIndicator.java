package dev.limiter.actuate;

import dev.limiter.core.FailOpenRateLimitStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.StoreMode;
import dev.limiter.resilience.CircuitBreakingRateLimitStore;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The {@code limiter} health component: store, mode (authoritative or degraded), circuit breaker state and the
 * fallback's key count. Always {@code UP}: a degraded limiter still serves, bounded, and must never take the
 * application out of its load balancer. Alert on {@code mode} or the {@code limiter.degraded} gauge instead.
 */
public class LimiterHealthIndicator extends AbstractHealthIndicator {

    private final RateLimitStore store;

    public LimiterHealthIndicator(RateLimitStore store) {
        super("Limiter health check failed");
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up().withDetail("store", store.name());
        if (store instanceof FailOpenRateLimitStore failOpen) {
            builder.withDetail("mode", failOpen.mode().tag());
            if (failOpen.authoritative() instanceof CircuitBreakingRateLimitStore breaking) {
                builder.withDetail("circuitBreaker", breaking.circuitBreaker().getState().name());
            }
            builder.withDetail("fallbackKeys", failOpen.fallbackKeys());
        } else {
            builder.withDetail("mode", StoreMode.AUTHORITATIVE.tag());
        }
    }
}
