package dev.limiter.core.internal;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A sliding window in a budget decided window by window: {@link SlidingWindowArithmetic}.
 * Its {@link AdmissionRule} reads what still counts ({@code counted}), the reset kept in
 * the state (when the newest bucket ages out, {@link SlidingWindowArithmetic#count}) and
 * the retry as {@code extra}, found while the buckets were at hand.
 */
final class SlidingWindows implements WindowArithmetic, AdmissionRule {

	/**
	 * {@link #read} then {@link #countAdmitted} for a budget of this one window, answered
	 * as {@link BudgetArithmetic} answers that admission; {@code null}, with nothing
	 * changed, when {@code cost} does not fit. Called on this final class rather than
	 * through {@link WindowArithmetic}, so that the compiler inlines it where several
	 * algorithms are in use.
	 */
	Decision admitAlone(Budget budget, Window w, CounterState state, long cost, long nowMillis) {
		long[] buckets = state.slide(0);
		long counted = SlidingWindowArithmetic.admitInNewest(w, state, 0, buckets, cost, nowMillis);
		long retry;
		if (counted >= 0) {
			retry = SlidingWindowArithmetic.retryAt(w, buckets, counted, cost, false, nowMillis);
		}
		else {
			long alive = SlidingWindowArithmetic.alive(w, buckets, nowMillis);
			if (cost > w.limit() - alive) {
				return null;
			}
			retry = countAdmitted(w, state, 0, alive, cost, nowMillis);
			counted = alive + cost;
		}
		return Decision.admitted(budget, nowMillis, this, counted, state.reset(0), retry, null, 0, 0, 0);
	}

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
		return countAdmitted(w, state, i, reading.before(), cost, nowMillis);
	}

	/**
	 * Counts an admission of {@code cost} in window {@code i}, where {@code alive} units
	 * counted before it.
	 * @return the retry of the admission's verdict
	 */
	private static long countAdmitted(Window w, CounterState state, int i, long alive, long cost, long nowMillis) {
		SlidingWindowArithmetic.count(w, state, i, cost, nowMillis);
		// As in count: what counts now is what the reading saw and the cost.
		return SlidingWindowArithmetic.retryAt(w, state.slide(i), alive + cost, cost, false, nowMillis);
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
