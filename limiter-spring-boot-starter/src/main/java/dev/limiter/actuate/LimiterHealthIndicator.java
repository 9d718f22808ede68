package dev.limiter.actuate;

import dev.limiter.core.RateLimitStore;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The {@code limiter} health component on Spring Boot 3 ({@link LimiterHealthDetails} on
 * Boot 3's health API). Always {@code UP}: alert on {@code mode} or the
 * {@code limiter.degraded} gauge instead.
 */
public class LimiterHealthIndicator extends AbstractHealthIndicator {

	private final RateLimitStore store;

	public LimiterHealthIndicator(RateLimitStore store) {
		super("Limiter health check failed");
		this.store = store;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.up().withDetails(LimiterHealthDetails.of(store).details());
	}

}
