package dev.limiter.resilience;

import java.time.Duration;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.Reservation;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.Window;
import dev.limiter.core.contract.DownRateLimitStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The degraded fallback reserves and settles with the same in-process arithmetic as the
 * in-memory store (ADR 0012): a report beyond the long range is clamped and saturates
 * there too, and a fixed window carries its excess into the next ones.
 */
class FailOpenRateLimitStoreSettlementTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget COMPLETION = Budget.builder("completion")
		.window("minute", 60, Duration.ofMinutes(1))
		.window(Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	private final FailOpenRateLimitStore store = new FailOpenRateLimitStore(new Down(), 1_000, (budget) -> false, 5_000,
			StoreModeListener.NONE);

	@Test
	void settleWhenDegradedAndReportsAddUpBeyondTheLongRangeShouldSaturateNotWrapIntoRoom() {
		settle(reserve(T0 + 1_000), 1_900, T0 + 1_100);
		settle(reserve(T0 + 2_000), Long.MAX_VALUE, T0 + 2_100);

		Decision refused = store.reserve(COMPLETION, "k", amounts(), false, T0 + 3_000);

		assertThat(refused.degraded()).isTrue();
		assertThat(refused.allowed()).isFalse();
		assertThat(store.reserve(COMPLETION, "k", amounts(), false, T0 + 60_000L * 100).allowed()).isFalse();
	}

	@Test
	void settleWhenDegradedAndSixteenReservationsEachReportTheWholeWindowShouldCarryTheExcessUntilPaid() {
		Reservation[] inFlight = new Reservation[16];
		for (int i = 0; i < inFlight.length; i++) {
			inFlight[i] = reserve(T0 + 1_000);
		}
		for (Reservation reservation : inFlight) {
			settle(reservation, 2_000, T0 + 2_000);
		}

		assertThat(store.reserve(COMPLETION, "k", amounts(), false, T0 + 15 * 60_000L).allowed()).isFalse();
		assertThat(store.reserve(COMPLETION, "k", amounts(), false, T0 + 16 * 60_000L).allowed()).isTrue();
	}

	private static long[] amounts() {
		return COMPLETION.amounts(1, Map.of("tokens", 1L));
	}

	private Reservation reserve(long now) {
		Decision decision = store.reserve(COMPLETION, "k", amounts(), false, now);
		assertThat(decision.allowed()).isTrue();
		assertThat(decision.degraded()).isTrue();
		return Reservation.of(COMPLETION, "k", decision, amounts()).orElseThrow();
	}

	private void settle(Reservation reservation, long tokens, long now) {
		store.settle(reservation.settle(Map.of("tokens", tokens)).orElseThrow(), now);
	}

	/** An authoritative store that fails every call, reservations included. */
	private static final class Down implements RateLimitStore {

		private final DownRateLimitStore down = new DownRateLimitStore("redis");

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			return down.take(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
			throw new RateLimitStoreException("down");
		}

		@Override
		public void release(Lease lease, long nowMillis) {
			down.release(lease, nowMillis);
		}

		@Override
		public KeyState peek(Budget budget, String key, long nowMillis) {
			return down.peek(budget, key, nowMillis);
		}

		@Override
		public void reset(Budget budget, String key) {
			down.reset(budget, key);
		}

		@Override
		public String name() {
			return "redis";
		}

	}

}
