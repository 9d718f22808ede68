package dev.limiter.boot3.actuate;

import java.time.Clock;

import dev.limiter.actuate.LimiterHealthDetails;
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

	private final Clock clock;

	public LimiterHealthIndicator(RateLimitStore store) {
		this(store, Clock.systemUTC());
	}

	/**
	 * @param clock the limiter's clock, for the probe of a degraded store
	 * ({@link LimiterHealthDetails#of(RateLimitStore, Clock)})
	 */
	public LimiterHealthIndicator(RateLimitStore store, Clock clock) {
		super("Limiter health check failed");
		this.store = store;
		this.clock = clock;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.up().withDetails(LimiterHealthDetails.of(store, clock).details());
	}

}
