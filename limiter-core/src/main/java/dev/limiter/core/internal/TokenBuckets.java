package dev.limiter.core.internal;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A token bucket in a budget decided window by window: {@link TokenBucketArithmetic}. Its
 * {@link AdmissionRule} reads the {@code TAT} kept in the state after the admission: its
 * whole milliseconds (the reset slot) and its remainder ({@code extra}, the count slot);
 * the verdict's divisions are made only when a caller reads it.
 */
final class TokenBuckets implements WindowArithmetic, AdmissionRule {

	/**
	 * {@link #read} then {@link #countAdmitted} for a budget of this one window, answered
	 * as {@link BudgetArithmetic} answers that admission; {@code null}, with nothing
	 * changed, when {@code cost} does not fit. Called on this final class rather than
	 * through {@link WindowArithmetic}, so that the compiler inlines it where several
	 * algorithms are in use.
	 */
	Decision admitAlone(Budget budget, Window w, CounterState state, long cost, long nowMillis) {
		long debt = TokenBucketArithmetic.debt(w, state, 0, nowMillis);
		if (!TokenBucketArithmetic.fits(w, debt, cost)) {
			return null;
		}
		TokenBucketArithmetic.count(w, state, 0, debt, cost, nowMillis);
		return Decision.admitted(budget, nowMillis, this, cost, state.reset(0), state.count(0), null, 0, 0, 0);
	}

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.TOKEN_BUCKET;
	}

	@Override
	public Reading read(Window w, CounterState state, int i, long cost, boolean dryRun, long nowMillis) {
		return Reading.of(TokenBucketArithmetic.fits(w, TokenBucketArithmetic.debt(w, state, i, nowMillis), cost));
	}

	@Override
	public BoundVerdict count(Window w, CounterState state, int i, Reading reading, long cost, boolean counts,
			long nowMillis) {
		if (counts) {
			TokenBucketArithmetic.count(w, state, i, cost, nowMillis);
		}
		return TokenBucketArithmetic.verdict(w, TokenBucketArithmetic.debt(w, state, i, nowMillis), cost,
				!reading.room(), nowMillis);
	}

	@Override
	public long countAdmitted(Window w, CounterState state, int i, Reading reading, long cost, long nowMillis) {
		TokenBucketArithmetic.count(w, state, i, cost, nowMillis);
		return state.count(i);
	}

	@Override
	public AdmissionRule admissionRule() {
		return this;
	}

	@Override
	public BoundVerdict verdict(Window window, long counted, long resetAtMillis, long extra, long decidedAtMillis) {
		// An admission's verdict reads no cost: that is for a refusal's retry.
		return TokenBucketArithmetic.verdict(window,
				TokenBucketArithmetic.debt(window, resetAtMillis, extra, decidedAtMillis), 0, false, decidedAtMillis);
	}

	@Override
	public boolean exhausted(Window window, long counted, long resetAtMillis, long extra, long decidedAtMillis) {
		return TokenBucketArithmetic.exhausted(window,
				TokenBucketArithmetic.debt(window, resetAtMillis, extra, decidedAtMillis));
	}

	@Override
	public void settle(Window w, CounterState state, int i, long instance, long delta, long nowMillis) {
		TokenBucketArithmetic.settle(w, state, i, delta, nowMillis);
	}

}
