package dev.limiter.actuate;

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

	/** Reads the current state of {@code store}. */
	public static LimiterHealthDetails of(RateLimitStore store) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("store", store.name());
		boolean degraded = false;
		if (store instanceof FailOpenRateLimitStore failOpen) {
			StoreMode mode = failOpen.mode();
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
