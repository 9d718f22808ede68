package dev.limiter.core.internal;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A fixed window in a budget decided window by window: {@link FixedWindowArithmetic}'s
 * reading of the window that counts now, its excess carried by {@link FixedWindowDebt}.
 */
final class FixedWindows implements WindowArithmetic {

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.FIXED_WINDOW;
	}

	@Override
	public Reading read(Window w, CounterState state, int i, long cost, boolean dryRun, long nowMillis) {
		long reset = FixedWindowArithmetic.resetOf(w, state, i, nowMillis);
		boolean counting = state != null && state.reset(i) >= reset;
		long carried = (state == null || counting) ? 0
				: FixedWindowDebt.carried(w, state.reset(i), state.count(i), reset);
		if (!dryRun && !counting) {
			// A refusal still moves the key to the newest window, as for a budget of
			// fixed
			// windows only.
			state.restart(i, reset);
			state.count(i, carried);
		}
		long before = counting ? state.count(i) : carried;
		return new Reading(cost <= w.limit() - before, reset, before);
	}

	@Override
	public BoundVerdict count(Window w, CounterState state, int i, Reading reading, long cost, boolean counts,
			long nowMillis) {
		long after = counts ? reading.before() + cost : reading.before();
		if (counts) {
			state.count(i, after);
		}
		boolean refused = !reading.room();
		long retry = refused ? FixedWindowDebt.retryAt(w, reading.reset(), after, cost) : reading.reset();
		return BoundVerdict.window(w, w.limit() - after, reading.reset(), refused, retry);
	}

	@Override
	public long countAdmitted(Window w, CounterState state, int i, Reading reading, long cost, long nowMillis) {
		state.count(i, reading.before() + cost);
		return 0;
	}

	/** The reading's reset is the state's: {@link #read} moved the state there. */
	@Override
	public AdmissionRule admissionRule() {
		return AdmissionRule.FIXED_WINDOW;
	}

	@Override
	public long keptUntil(Window w, CounterState state, int i) {
		return FixedWindowDebt.keepUntil(w, state.reset(i), state.count(i));
	}

	@Override
	public void settle(Window w, CounterState state, int i, long instance, long delta, long nowMillis) {
		if (state.reset(i) == instance) {
			state.count(i, SettlementBounds.settledCount(state.count(i), delta));
		}
	}

}
