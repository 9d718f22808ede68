package dev.limiter.core;

import java.util.List;

/**
 * The difference between what a request reserved and what it used, per window, bound to
 * the window instances the reservation counted in ({@link Reservation}); what
 * {@link RateLimitStore#settle} applies.
 *
 * @param budget the budget the reservation was counted against
 * @param key the counter key it was counted under
 * @param instances per window, the instance counted in: a fixed window's end, a sliding
 * window's bucket, 0 for a token bucket
 * @param deltas per window, the units to add (negative: to give back); 0 for a window of
 * requests and a unit nobody reported
 * @param clamped per window, the units reported beyond its
 * {@link SettlementBounds#maxReport}, which count nothing (0 when none)
 * @param degraded whether the degraded fallback made the reservation
 */
public record Settlement(Budget budget, String key, long[] instances, long[] deltas, long[] clamped, boolean degraded) {

	/**
	 * Whether window {@code i}'s instance still counts at {@code nowMillis}, so that its
	 * delta lands there: a fixed window until its end, a sliding window's bucket until it
	 * ages out, a token bucket always. A delta whose instance has passed is dropped (ADR
	 * 0012): the window it was reserved in no longer limits anything.
	 */
	public boolean lands(int i, long nowMillis) {
		Window w = budget.windows().get(i);
		return w.algorithm().kind().lands(w, instances[i], nowMillis);
	}

	/** Whether some window has a delta: a settlement without one changes nothing. */
	public boolean changesAnything() {
		for (long delta : deltas) {
			if (delta != 0) {
				return true;
			}
		}
		return false;
	}

	/** The windows, for readers that have the settlement alone. */
	public List<Window> windows() {
		return budget.windows();
	}

}
