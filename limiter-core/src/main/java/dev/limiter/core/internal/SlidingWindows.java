package dev.limiter.core.internal;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A sliding window in a budget decided window by window: {@link SlidingWindowArithmetic}.
 * Its {@link AdmissionRule} reads what still counts ({@code counted}), the reset kept in
 * the state (when the newest bucket ages out, {@link SlidingWindowArithmetic#count}) and
 * the retry as {@code extra}, found while the buckets were at hand.
 */
final class SlidingWindows implements WindowArithmetic, AdmissionRule {

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.SLIDING_WINDOW;
	}

	@Override
	public Reading read(Window w, CounterState state, int i, long cost, boolean dryRun, long nowMillis) {
		long alive = SlidingWindowArithmetic.alive(w, (state != null) ? state.slide(i) : null, nowMillis);
		return new Reading(cost <= w.limit() - alive, 0, alive);
	}

	@Override
	public BoundVerdict count(Window w, CounterState state, int i, Reading reading, long cost, boolean counts,
			long nowMillis) {
		if (counts) {
			SlidingWindowArithmetic.count(w, state, i, cost, nowMillis);
		}
		// Counting reads the buckets at the moment the reading did and drops only
		// buckets that no longer counted then: what counts now is what the reading saw,
		// and the cost when counted.
		long alive = counts ? reading.before() + cost : reading.before();
		return SlidingWindowArithmetic.verdict(w, (state != null) ? state.slide(i) : null, alive, cost, !reading.room(),
				nowMillis);
	}

	@Override
	public long countAdmitted(Window w, CounterState state, int i, Reading reading, long cost, long nowMillis) {
		SlidingWindowArithmetic.count(w, state, i, cost, nowMillis);
		// As in count: what counts now is what the reading saw and the cost.
		return SlidingWindowArithmetic.retryAt(w, state.slide(i), reading.before() + cost, cost, false, nowMillis);
	}

	@Override
	public AdmissionRule admissionRule() {
		return this;
	}

	@Override
	public BoundVerdict verdict(Window window, long counted, long resetAtMillis, long extra, long decidedAtMillis) {
		return SlidingWindowArithmetic.verdict(window, counted, resetAtMillis, extra, false, decidedAtMillis);
	}

	@Override
	public boolean exhausted(Window window, long counted, long resetAtMillis, long extra, long decidedAtMillis) {
		return counted >= window.limit();
	}

	@Override
	public void settle(Window w, CounterState state, int i, long instance, long delta, long nowMillis) {
		SlidingWindowArithmetic.settle(state, i, instance, delta);
	}

}
