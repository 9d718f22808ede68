package dev.limiter.core;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one request reserves from each window ({@link Budget#reservedAmounts}): an
 * estimate larger than a window in its unit can hold is capped at that window's capacity,
 * and {@link Budget#cappedWindow} names the window (ADR 0012).
 */
class BudgetAmountsTests {

	private static final Budget SMALL = Budget.builder("small")
		.window("minute", 60, Duration.ofMinutes(1))
		.window(Window.of("tokens", 50, Duration.ofMinutes(1)).inUnit("tokens"))
		.window(Window.tokenBucket("rows", 1_000, Duration.ofMinutes(1)).inUnit("rows"))
		.build();

	@Test
	void amountsWhenEveryEstimateFitsShouldReserveThemAsGiven() {
		Map<String, Long> estimates = Map.of("tokens", 50L, "rows", 7L);

		assertThat(SMALL.reservedAmounts(1, estimates)).containsExactly(1, 50, 7);
		assertThat(SMALL.cappedWindow(estimates)).isEmpty();
	}

	@Test
	void amountsWhenAnEstimateExceedsItsWindowShouldReserveTheWindowsCapacityAndNameIt() {
		Map<String, Long> estimates = Map.of("tokens", 100L, "rows", 5_000L);

		long[] amounts = SMALL.reservedAmounts(1, estimates);

		assertThat(amounts).containsExactly(1, 50, 1_000);
		assertThat(SMALL.amounts(1, estimates)).as("as given").containsExactly(1, 100, 5_000);
		SMALL.checkAmounts(amounts);
		assertThat(SMALL.cappedWindow(estimates)).map(Window::name).contains("tokens");
	}

	@Test
	void cappedWindowWhenTheBudgetCountsOnlyRequestsShouldBeEmpty() {
		Budget requests = Budget.builder("requests").window("minute", 1, Duration.ofMinutes(1)).build();

		assertThat(requests.cappedWindow(Map.of("tokens", 100L))).isEmpty();
		assertThat(requests.reservedAmounts(1, Map.of("tokens", 100L))).containsExactly(1);
	}

}
