package dev.limiter.core.internal;

import java.time.Duration;
import java.time.ZoneOffset;

import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every window algorithm has its own arithmetic for a budget decided window by window,
 * and no two algorithms share one.
 */
class WindowArithmeticTests {

	@ParameterizedTest
	@EnumSource(WindowAlgorithm.class)
	void arithmeticWhenSelectedForAWindowShouldBeTheOneOfItsAlgorithm(WindowAlgorithm algorithm) {
		Window window = (algorithm == WindowAlgorithm.CALENDAR)
				? Window.calendar("w", 10, CalendarPeriod.of(CalendarPeriod.Unit.DAY, ZoneOffset.UTC))
				: new Window("w", 10, Duration.ofSeconds(10), algorithm, null, null);

		assertThat(WindowArithmetic.of(window).algorithm()).isEqualTo(algorithm);
	}

	@Test
	void allWhenListedShouldHoldOneArithmeticPerAlgorithm() {
		assertThat(WindowArithmetic.ALL.stream().map(WindowArithmetic::algorithm))
			.containsExactlyInAnyOrder(WindowAlgorithm.values());
	}

}
