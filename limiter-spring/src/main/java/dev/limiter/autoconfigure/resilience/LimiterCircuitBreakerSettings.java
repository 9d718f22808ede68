package dev.limiter.autoconfigure.resilience;

import java.time.Duration;

import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The standard {@code resilience4j.circuitbreaker.instances.limiter.*} keys, read by the
 * starter itself so that they work without resilience4j-spring-boot3 (Resilience4j's own
 * binding of them lives there, in a module per Boot line, which the limiter does not
 * require). Unset keys keep the limiter's defaults: open after a handful of failures,
 * probe again after a few seconds.
 */
public class LimiterCircuitBreakerSettings {

	/**
	 * Property prefix of the breaker's settings, the one resilience4j-spring-boot3 reads
	 * too.
	 */
	public static final String PREFIX = "resilience4j.circuitbreaker.instances."
			+ LimiterResilienceAutoConfiguration.BREAKER_NAME;

	private SlidingWindowType slidingWindowType = SlidingWindowType.COUNT_BASED;

	private int slidingWindowSize = 10;

	private int minimumNumberOfCalls = 5;

	private float failureRateThreshold = 50;

	private float slowCallRateThreshold = 100;

	private Duration slowCallDurationThreshold = Duration.ofSeconds(60);

	private Duration waitDurationInOpenState = Duration.ofSeconds(5);

	private int permittedNumberOfCallsInHalfOpenState = 3;

	private Duration maxWaitDurationInHalfOpenState = Duration.ZERO;

	private boolean automaticTransitionFromOpenToHalfOpenEnabled = false;

	/**
	 * How the breaker's sliding window is guarded: lock-free by default, because calls
	 * are recorded where the store's answer arrives (a Redis client's or a web server's
	 * event loop), where a thread must never wait for a lock.
	 */
	private SlidingWindowSynchronizationStrategy slidingWindowSynchronizationStrategy = SlidingWindowSynchronizationStrategy.LOCK_FREE;

	static LimiterCircuitBreakerSettings bind(Environment environment) {
		return Binder.get(environment)
			.bind(PREFIX, Bindable.of(LimiterCircuitBreakerSettings.class))
			.orElseGet(LimiterCircuitBreakerSettings::new);
	}

	CircuitBreakerConfig toConfig() {
		try {
			return CircuitBreakerConfig.custom()
				.slidingWindowType(slidingWindowType)
				.slidingWindowSize(slidingWindowSize)
				.minimumNumberOfCalls(minimumNumberOfCalls)
				.failureRateThreshold(failureRateThreshold)
				.slowCallRateThreshold(slowCallRateThreshold)
				.slowCallDurationThreshold(slowCallDurationThreshold)
				.waitDurationInOpenState(waitDurationInOpenState)
				.permittedNumberOfCallsInHalfOpenState(permittedNumberOfCallsInHalfOpenState)
				.maxWaitDurationInHalfOpenState(maxWaitDurationInHalfOpenState)
				.automaticTransitionFromOpenToHalfOpenEnabled(automaticTransitionFromOpenToHalfOpenEnabled)
				.slidingWindowSynchronizationStrategy(slidingWindowSynchronizationStrategy)
				.build();
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("Invalid " + PREFIX + ".*: " + e.getMessage(), e);
		}
	}

	public SlidingWindowType getSlidingWindowType() {
		return slidingWindowType;
	}

	public void setSlidingWindowType(SlidingWindowType slidingWindowType) {
		this.slidingWindowType = slidingWindowType;
	}

	public int getSlidingWindowSize() {
		return slidingWindowSize;
	}

	public void setSlidingWindowSize(int slidingWindowSize) {
		this.slidingWindowSize = slidingWindowSize;
	}

	public int getMinimumNumberOfCalls() {
		return minimumNumberOfCalls;
	}

	public void setMinimumNumberOfCalls(int minimumNumberOfCalls) {
		this.minimumNumberOfCalls = minimumNumberOfCalls;
	}

	public float getFailureRateThreshold() {
		return failureRateThreshold;
	}

	public void setFailureRateThreshold(float failureRateThreshold) {
		this.failureRateThreshold = failureRateThreshold;
	}

	public float getSlowCallRateThreshold() {
		return slowCallRateThreshold;
	}

	public void setSlowCallRateThreshold(float slowCallRateThreshold) {
		this.slowCallRateThreshold = slowCallRateThreshold;
	}

	public Duration getSlowCallDurationThreshold() {
		return slowCallDurationThreshold;
	}

	public void setSlowCallDurationThreshold(Duration slowCallDurationThreshold) {
		this.slowCallDurationThreshold = slowCallDurationThreshold;
	}

	public Duration getWaitDurationInOpenState() {
		return waitDurationInOpenState;
	}

	public void setWaitDurationInOpenState(Duration waitDurationInOpenState) {
		this.waitDurationInOpenState = waitDurationInOpenState;
	}

	public int getPermittedNumberOfCallsInHalfOpenState() {
		return permittedNumberOfCallsInHalfOpenState;
	}

	public void setPermittedNumberOfCallsInHalfOpenState(int permittedNumberOfCallsInHalfOpenState) {
		this.permittedNumberOfCallsInHalfOpenState = permittedNumberOfCallsInHalfOpenState;
	}

	public Duration getMaxWaitDurationInHalfOpenState() {
		return maxWaitDurationInHalfOpenState;
	}

	public void setMaxWaitDurationInHalfOpenState(Duration maxWaitDurationInHalfOpenState) {
		this.maxWaitDurationInHalfOpenState = maxWaitDurationInHalfOpenState;
	}

	public boolean isAutomaticTransitionFromOpenToHalfOpenEnabled() {
		return automaticTransitionFromOpenToHalfOpenEnabled;
	}

	public void setAutomaticTransitionFromOpenToHalfOpenEnabled(boolean automaticTransitionFromOpenToHalfOpenEnabled) {
		this.automaticTransitionFromOpenToHalfOpenEnabled = automaticTransitionFromOpenToHalfOpenEnabled;
	}

	public SlidingWindowSynchronizationStrategy getSlidingWindowSynchronizationStrategy() {
		return slidingWindowSynchronizationStrategy;
	}

	public void setSlidingWindowSynchronizationStrategy(
			SlidingWindowSynchronizationStrategy slidingWindowSynchronizationStrategy) {
		this.slidingWindowSynchronizationStrategy = slidingWindowSynchronizationStrategy;
	}

}
