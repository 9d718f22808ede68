package dev.limiter.redis;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A sliding window in the scripts: code {@code s}; one field
 * {@code <window>:<millis>:s<resolution>} (its buckets are numbered by the resolution);
 * parameters: duration, resolution.
 */
final class SlidingWindowCodec implements WindowCodec {

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.SLIDING_WINDOW;
	}

	@Override
	public String code() {
		return "s";
	}

	@Override
	public String field(Window window) {
		return window.name() + ":" + window.durationMillis() + ":s" + window.resolutionMillis();
	}

	@Override
	public String firstParameter(Window window, long nowMillis) {
		return Long.toString(window.durationMillis());
	}

	@Override
	public String secondParameter(Window window) {
		return Long.toString(window.resolutionMillis());
	}

	@Override
	public String settleParameter(Window window) {
		return "0";
	}

	@Override
	public BoundVerdict decode(Window window, long reset, long second, boolean refused, long retry) {
		return BoundVerdict.window(window, second, reset, refused, (retry < 0) ? Long.MAX_VALUE : retry);
	}

}
