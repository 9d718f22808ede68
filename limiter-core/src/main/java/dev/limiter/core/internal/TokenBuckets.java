package dev.limiter.core.internal;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/** A token bucket in a budget decided window by window: {@link TokenBucketArithmetic}. */
final class TokenBuckets implements WindowArithmetic {

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
	public void settle(Window w, CounterState state, int i, long instance, long delta, long nowMillis) {
		TokenBucketArithmetic.settle(w, state, i, delta, nowMillis);
	}

}
