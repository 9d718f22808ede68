package dev.limiter.redis;

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
		return WindowCodec.nameAndLength(window) + ":s" + window.resolutionMillis();
	}

	@Override
	public String secondParameter(Window window) {
		return Long.toString(window.resolutionMillis());
	}

	@Override
	public String settleParameter(Window window) {
		return "0";
	}

}
