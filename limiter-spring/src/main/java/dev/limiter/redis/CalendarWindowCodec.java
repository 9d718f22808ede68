package dev.limiter.redis;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A calendar window in the scripts: code {@code c}; a fixed window's two fields
 * {@code <field>:r} (the end of the period counted in) and {@code <field>:c} (its count),
 * where the field is {@code <window>:<period>} (such as
 * {@code month:month@Europe/Berlin}), and {@code <field>:n}, the highest notify-at
 * threshold reached in the period; parameters: the end of the period that contains now
 * (the script has no time-zone database: Java computes it), and a fixed window's carry of
 * 0 (nothing is carried into the next period) with the notify-at thresholds in units;
 * settled as {@code limit:0} with the same thresholds. The script decides it with the
 * fixed window's block.
 */
final class CalendarWindowCodec implements WindowCodec {

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.CALENDAR;
	}

	@Override
	public String code() {
		return "c";
	}

	@Override
	public String field(Window window) {
		return window.name() + ":" + window.calendar().orElseThrow();
	}

	@Override
	public String firstParameter(Window window, long nowMillis) {
		return Long.toString(window.resetAt(nowMillis));
	}

	/**
	 * A fixed window's second parameter that carries nothing, with its notify-at
	 * thresholds.
	 */
	@Override
	public String secondParameter(Window window) {
		return WindowCodec.withThresholds("0", window);
	}

	@Override
	public String settleParameter(Window window) {
		return WindowCodec.withThresholds(window.limit() + ":0", window);
	}

	@Override
	public BoundVerdict decode(Window window, long reset, long second, boolean refused, long retry) {
		return BoundVerdict.window(window, second, reset, refused);
	}

}
