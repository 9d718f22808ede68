package dev.limiter.core.internal;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A token bucket in a budget decided window by window: {@link TokenBucketArithmetic}. Its
 * {@link AdmissionRule} reads the {@code TAT} kept in the state after the admission: its
 * whole milliseconds (the reset slot) and its remainder ({@code extra}, the count slot);
 * the verdict's divisions are made only when a caller reads it.
 */
final class TokenBuckets implements WindowArithmetic, AdmissionRule {

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
