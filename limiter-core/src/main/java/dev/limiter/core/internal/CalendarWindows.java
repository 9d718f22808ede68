package dev.limiter.core.internal;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A calendar window in a budget decided window by window: a fixed window whose instance
 * is the calendar period containing now ({@link Window#resetAt}, its end, names it). A
 * new period starts at zero, also after a settlement took the last one beyond its limit;
 * a clock that went backwards keeps counting in the newest period seen.
 * {@code take.lua}'s and {@code settle.lua}'s {@code c} blocks hold the same rule.
 */
final class CalendarWindows implements WindowArithmetic {

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.CALENDAR;
	}

	@Override
	public Reading read(Window w, CounterState state, int i, long cost, boolean dryRun, long nowMillis) {
		long reset = w.resetAt(nowMillis);
		boolean counting = state != null && state.reset(i) >= reset;
		if (counting) {
			reset = state.reset(i);
		}
		else if (!dryRun) {
			// A refusal still moves the key to the period that counts now.
			state.restart(i, reset);
		}
		long before = counting ? state.count(i) : 0;
		return new Reading(cost <= w.limit() - before, reset, before);
	}

	@Override
	public BoundVerdict count(Window w, CounterState state, int i, Reading reading, long cost, boolean counts,
			long nowMillis) {
		long after = counts ? reading.before() + cost : reading.before();
		if (counts) {
			state.count(i, after);
		}
		return BoundVerdict.window(w, after, reading.reset(), !reading.room());
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
	public void settle(Window w, CounterState state, int i, long instance, long delta, long nowMillis) {
		if (state.reset(i) == instance) {
			state.count(i, SettlementBounds.settledCount(state.count(i), delta));
		}
	}

}
