package dev.limiter.core;

/**
 * Milliseconds to the whole seconds of headers and bodies, rounded up so that a caller
 * never retries too early.
 */
public final class Seconds {

	private Seconds() {
	}

	/**
	 * {@code millis} rounded up to whole seconds (floor-based, so negative values round
	 * towards zero too).
	 */
	public static long ceil(long millis) {
		return Math.floorDiv(millis + 999, 1000);
	}

	/**
	 * {@link #ceil} but at least one: a wait or a window is never announced as zero
	 * seconds.
	 */
	public static long atLeastOne(long millis) {
		return Math.max(1, ceil(millis));
	}

}
