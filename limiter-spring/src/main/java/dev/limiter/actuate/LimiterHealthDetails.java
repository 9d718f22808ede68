package dev.limiter.actuate;

import java.time.Clock;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.StoreMode;
import dev.limiter.resilience.CircuitBreakingRateLimitStore;
import dev.limiter.resilience.FailOpenRateLimitStore;

/**
 * The details of the {@code limiter} health component: store, mode (authoritative or
 * degraded), circuit breaker state and the fallback's key count. Lives in the runtime so
 * that each Spring Boot line's health indicator is only an adapter and the details are
 * the same on every line.
 */
public final class LimiterHealthDetails {

	private final Map<String, Object> details;

	private final boolean degraded;

	private LimiterHealthDetails(Map<String, Object> details, boolean degraded) {
		this.details = Collections.unmodifiableMap(details);
		this.degraded = degraded;
	}

	/** {@link #of(RateLimitStore, Clock)} on the system clock. */
	public static LimiterHealthDetails of(RateLimitStore store) {
		return of(store, Clock.systemUTC());
	}

	/**
	 * Reads the current state of {@code store}; while it is degraded, first asks it
	 * whether it answers again ({@link FailOpenRateLimitStore#probe}), so that a health
	 * check shows the recovery without waiting for a request to end the outage.
	 * @param clock the limiter's clock, for the probe's read
	 */
	public static LimiterHealthDetails of(RateLimitStore store, Clock clock) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("store", store.name());
		boolean degraded = false;
		if (store instanceof FailOpenRateLimitStore failOpen) {
			StoreMode mode = failOpen.probe(clock.millis());
			degraded = mode != StoreMode.AUTHORITATIVE;
			details.put("mode", mode.tag());
			if (failOpen.authoritative() instanceof CircuitBreakingRateLimitStore breaking) {
				details.put("circuitBreaker", breaking.circuitBreaker().getState().name());
			}
			details.put("fallbackKeys", failOpen.fallbackKeys());
		}
		else {
			details.put("mode", StoreMode.AUTHORITATIVE.tag());
		}
		return new LimiterHealthDetails(details, degraded);
	}

	/**
	 * {@code store}, {@code mode}, and for a fail-open store {@code circuitBreaker} and
	 * {@code fallbackKeys}.
	 */
	public Map<String, Object> details() {
		return details;
	}

	/**
	 * Whether the limiter is serving from its fallback. The component stays {@code UP}
	 * even then: a degraded limiter still serves, bounded, and must never take the
	 * application out of its load balancer.
	 */
	public boolean degraded() {
		return degraded;
	}

}
