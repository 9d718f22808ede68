package dev.limiter.autoconfigure.resilience;

import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The breaker's settings as the starter reads them: its sliding window takes no lock
 * unless the application asks for one, since calls are recorded on event loops.
 */
class LimiterCircuitBreakerSettingsTests {

	@Test
	void toConfigWhenNothingIsSetShouldRecordCallsWithoutALock() {
		assertThat(LimiterCircuitBreakerSettings.bind(new MockEnvironment())
			.toConfig()
			.getSlidingWindowSynchronizationStrategy()).isEqualTo(SlidingWindowSynchronizationStrategy.LOCK_FREE);
	}

	@Test
	void toConfigWhenTheStandardKeyIsSetShouldUseIt() {
		MockEnvironment environment = new MockEnvironment().withProperty(
				LimiterCircuitBreakerSettings.PREFIX + ".sliding-window-synchronization-strategy", "synchronized");

		assertThat(LimiterCircuitBreakerSettings.bind(environment).toConfig().getSlidingWindowSynchronizationStrategy())
			.isEqualTo(SlidingWindowSynchronizationStrategy.SYNCHRONIZED);
	}

}
