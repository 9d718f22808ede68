package dev.limiter.core;

/**
 * A key's usage of one window reached one of its {@link NotifyAt} thresholds in the
 * decision that carries it ({@link Decision#crossings()}) or the settlement whose store
 * step answered it ({@link RateLimitStore#settle}): decided in that same store step, once
 * per key, window period and threshold, whichever instance decided or settled.
 *
 * @param budget the budget's name
 * @param key the counter key
 * @param window the window's name
 * @param percent the threshold, a percentage of the limit
 * @param usage what the window counted once the decision or settlement was applied, in
 * its unit
 * @param limit the window's limit
 * @param periodEndMillis the end of the period the usage counts in, epoch ms
 */
public record ThresholdCrossing(String budget, String key, String window, int percent, long usage, long limit,
		long periodEndMillis) {
}
