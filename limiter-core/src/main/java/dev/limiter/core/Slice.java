package dev.limiter.core;

/**
 * What {@link RateLimitStore#takeSlice} answers: the decision for the request that asked
 * for the slice, and how many units of every window the store counted for this instance
 * (the request's cost included), 0 when it refused.
 *
 * @param decision the decision for the request that took the slice, as
 * {@link RateLimitStore#take} would answer it, except that every window's
 * {@code remaining} already leaves out the whole slice
 * @param units units counted in every window for this slice, the request's cost included;
 * 0 when refused
 */
public record Slice(Decision decision, long units) {

	public Slice {
		if (units < 0 || (units > 0) != decision.allowed()) {
			throw new IllegalArgumentException("a slice holds units exactly when it was admitted, was " + units);
		}
	}

}
