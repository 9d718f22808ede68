package dev.limiter.redis;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A fixed window in the scripts: code {@code f}; two fields {@code <field>:r} (the end of
 * the window counted in) and {@code <field>:c} (its count), where the field is
 * {@code <window>:<millis>}, and {@code <field>:n}, the highest notify-at threshold
 * reached in the window, for a window with thresholds; parameters: the end of the window
 * that contains now, and its duration when it carries its excess into the windows after
 * it (a window in a unit other than requests; {@code FixedWindowDebt}), else 0, followed
 * by its notify-at thresholds in units ({@link WindowCodec#withThresholds}).
 */
final class FixedWindowCodec implements WindowCodec {

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.FIXED_WINDOW;
	}

	@Override
	public String code() {
		return "f";
	}

	@Override
	public String field(Window window) {
		return WindowCodec.nameAndLength(window);
	}

	@Override
	public String firstParameter(Window window, long nowMillis) {
		return Long.toString(window.resetAt(nowMillis));
	}

	@Override
	public String secondParameter(Window window) {
		return WindowCodec.withThresholds(window.countsRequests() ? "0" : Long.toString(window.durationMillis()),
				window);
	}

	/** Its rate, what its excess is carried by, with its notify-at thresholds. */
	@Override
	public String settleParameter(Window window) {
		return WindowCodec.withThresholds(window.limit() + ":" + window.durationMillis(), window);
	}

	/**
	 * A fixed window answers its count, and a retry later than its reset while it carries
	 * an excess.
	 */
	@Override
	public BoundVerdict decode(Window window, long reset, long second, boolean refused, long retry) {
		return BoundVerdict.window(window, window.limit() - second, reset, refused, retry);
	}

}
