package dev.limiter.core.internal;

import java.util.List;

import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * Whether a key's stored state, counted with one list of windows, can be read with
 * another of the same size: per window, the same algorithm, and for a sliding window the
 * same length and resolution (its buckets are numbered by them), for a token bucket the
 * same limit and length (its stored fraction is in units of the refill interval). A fixed
 * window keeps its count across any change, as it always did. The Redis store makes the
 * same choice through its field names.
 */
final class WindowLayout {

	private WindowLayout() {
	}

	/**
	 * Brings {@code state} to {@code windows}: every window whose stored state means
	 * something else now is forgotten.
	 */
	static void adopt(CounterState state, List<Window> windows) {
		List<Window> before = state.layout;
		if (before == windows) {
			return;
		}
		if (before != null) {
			for (int i = 0; i < windows.size(); i++) {
				if (!compatible(before.get(i), windows.get(i))) {
					state.forget(i);
					state.shape = null;
				}
			}
		}
		state.layout = windows;
	}

	static boolean compatible(Window before, Window now) {
		if (before.algorithm() != now.algorithm()) {
			return false;
		}
		if (now.algorithm() == WindowAlgorithm.SLIDING_WINDOW) {
			return before.durationMillis() == now.durationMillis()
					&& before.resolutionMillis() == now.resolutionMillis();
		}
		if (now.algorithm() == WindowAlgorithm.TOKEN_BUCKET) {
			return before.limit() == now.limit() && before.durationMillis() == now.durationMillis();
		}
		return true;
	}

}
