package dev.limiter.core;

/**
 * The ceilings every combination of a count, a cost, a report and a time stays under, so
 * that no arithmetic of the limiter wraps (ADR 0012, "Checked arithmetic"): the Java
 * arithmetic and the Redis scripts (whose numbers are doubles, exact up to {@code 2^53})
 * saturate at the same values and agree over the whole {@code long} range.
 *
 * <ul>
 * <li>A report counts at most {@link #maxReport(Window)} in a window: its
 * {@code max-report} when set, never more than {@link #MAX_UNITS} (a token bucket: never
 * more than {@code MAX_UNITS / duration}, so that the report in millisecond-tokens stays
 * under {@code MAX_UNITS} too). What is reported beyond is clamped, and counted.</li>
 * <li>A settlement never takes a count, a bucket or a token bucket's debt (in
 * millisecond-tokens) above {@link #MAX_COUNT}, nor below zero.</li>
 * <li>A key is never kept longer than {@link #MAX_KEEP_MILLIS}.</li>
 * </ul>
 */
public final class SettlementBounds {

	/** The most one report counts in a window, {@code 2^50}. */
	public static final long MAX_UNITS = 1L << 50;

	/**
	 * The most a settlement takes a count, a bucket or a debt to, {@code 2^52}: a sum of
	 * it and one report stays exact as a double.
	 */
	public static final long MAX_COUNT = 1L << 52;

	/**
	 * The longest a key's state is kept for its debt, {@code 2^52} ms (over 140,000
	 * years).
	 */
	public static final long MAX_KEEP_MILLIS = 1L << 52;

	private SettlementBounds() {
	}

	/** The most one report counts in {@code window}. */
	public static long maxReport(Window window) {
		return Math.min(ceiling(window), window.maxReport().orElse(Long.MAX_VALUE));
	}

	/**
	 * The largest delta, either way, any store applies to {@code window}: what a report
	 * within {@link #maxReport} can make of it, whoever built the settlement.
	 */
	public static long ceiling(Window window) {
		return window.algorithm().kind().settlementCeiling(window);
	}

	/** {@code delta} within {@code [-ceiling, ceiling]} of {@code window}. */
	public static long clampDelta(Window window, long delta) {
		long ceiling = ceiling(window);
		return Math.max(-ceiling, Math.min(ceiling, delta));
	}

	/**
	 * {@code count + delta} for a delta within {@link #clampDelta}: never below zero,
	 * never above {@link #MAX_COUNT} unless {@code count} already was (a decision may
	 * count that much in a window whose limit is larger; a settlement never adds to it).
	 */
	public static long settledCount(long count, long delta) {
		long sum = (delta > 0 && count > Long.MAX_VALUE - delta) ? Long.MAX_VALUE : count + delta;
		return Math.max(0, Math.min(Math.max(count, MAX_COUNT), sum));
	}

	/**
	 * {@code a + b} for {@code a, b >= 0}, {@link Long#MAX_VALUE} instead of wrapping.
	 */
	public static long saturatedSum(long a, long b) {
		long sum = a + b;
		return (sum < 0) ? Long.MAX_VALUE : sum;
	}

	/**
	 * {@code a * b} for {@code a, b >= 0}, {@link Long#MAX_VALUE} instead of wrapping.
	 */
	public static long saturatedProduct(long a, long b) {
		// The product's high half, not a division: a token bucket's every decision asks.
		long product = a * b;
		return (Math.multiplyHigh(a, b) != 0 || product < 0) ? Long.MAX_VALUE : product;
	}

}
