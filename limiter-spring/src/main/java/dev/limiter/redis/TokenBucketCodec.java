package dev.limiter.redis;

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
		return WindowCodec.nameAndLength(window) + ":t" + window.limit();
	}

	@Override
	public String secondParameter(Window window) {
		return Long.toString(window.burst());
	}

}
