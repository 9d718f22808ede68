package dev.limiter.core.internal;

import java.time.Duration;
import java.util.List;

import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a fixed window in units carries beyond its limit: paid down by one limit per
 * window, never wrapping, and the key kept (not idle) until it is paid.
 */
class FixedWindowDebtTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Window TOKENS = Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens");

	@Test
	void carriedWhenWindowsPassShouldBePaidDownByOneLimitEach() {
		long end = T0 + 60_000;

		assertThat(FixedWindowDebt.carried(TOKENS, end, 32_000, end + 60_000)).isEqualTo(30_000);
		assertThat(FixedWindowDebt.carried(TOKENS, end, 32_000, end + 15 * 60_000L)).isEqualTo(2_000);
		assertThat(FixedWindowDebt.carried(TOKENS, end, 32_000, end + 16 * 60_000L)).isZero();
		assertThat(FixedWindowDebt.carried(TOKENS, end, 1_999, end + 60_000)).isZero();
		assertThat(
				FixedWindowDebt.carried(Window.of("minute", 2_000, Duration.ofMinutes(1)), end, 32_000, end + 60_000))
			.as("a window of requests carries nothing")
			.isZero();
	}

	@Test
	void carriedWhenTheProductOfWindowsAndLimitPassesTheLongRangeShouldBeZeroNotWrap() {
		Window huge = Window.of("tokens", 1L << 50, Duration.ofMillis(1)).inUnit("tokens");

		assertThat(FixedWindowDebt.carried(huge, 1, Long.MAX_VALUE, Long.MAX_VALUE)).isZero();
	}

	@Test
	void retryAtWhenTheExcessIsBeyondAnyWaitShouldStopAtTheLongestKeep() {
		long end = T0 + 60_000;

		assertThat(FixedWindowDebt.retryAt(TOKENS, end, 32_000, 1)).isEqualTo(end + 15 * 60_000L);
		assertThat(FixedWindowDebt.retryAt(TOKENS, end, 2_000, 1)).isEqualTo(end);
		assertThat(FixedWindowDebt.retryAt(TOKENS, end, Long.MAX_VALUE, Long.MAX_VALUE))
			.isEqualTo(end + SettlementBounds.MAX_KEEP_MILLIS);
	}

	@Test
	void isIdleWhenAFixedWindowCarriesAnExcessShouldWaitUntilItIsPaid() {
		CounterState state = new CounterState(1);
		WindowLayout.adopt(state, List.of(TOKENS));
		state.restart(0, T0 + 60_000);
		state.count(0, 32_000);

		// the minute ending at 16 min starts at 2,000: it matters until its end
		assertThat(state.isIdle(T0 + 60_000)).isFalse();
		assertThat(state.isIdle(T0 + 16 * 60_000L - 1)).isFalse();
		assertThat(state.isIdle(T0 + 16 * 60_000L)).isTrue();
	}

}
