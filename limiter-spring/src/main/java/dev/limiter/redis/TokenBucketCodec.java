package dev.limiter.redis;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A token bucket in the scripts: code {@code t}; one field
 * {@code <window>:<millis>:t<limit>} (its stored fraction is in units of the refill
 * interval); parameters: duration, burst; settled at its rate, {@code limit:duration}.
 */
final class TokenBucketCodec implements WindowCodec {

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.TOKEN_BUCKET;
	}

	@Override
	public String code() {
		return "t";
	}

	@Override
	public String field(Window window) {
		return window.name() + ":" + window.durationMillis() + ":t" + window.limit();
	}

	@Override
	public String firstParameter(Window window, long nowMillis) {
		return Long.toString(window.durationMillis());
	}

	@Override
	public String secondParameter(Window window) {
		return Long.toString(window.burst());
	}

	@Override
	public String settleParameter(Window window) {
		return window.limit() + ":" + window.durationMillis();
	}

	@Override
	public BoundVerdict decode(Window window, long reset, long second, boolean refused, long retry) {
		return BoundVerdict.window(window, second, reset, refused, (retry < 0) ? Long.MAX_VALUE : retry);
	}

}
