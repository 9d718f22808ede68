package dev.limiter.core.internal;

import java.util.List;

import dev.limiter.core.Window;

/**
 * A key's stored state follows its windows by name when its budget's windows change (a
 * configuration refresh): a window keeps its count wherever it now stands in the list, a
 * window no longer declared is forgotten, a new one starts from nothing. A window whose
 * stored state would mean something else now starts afresh too: another algorithm or
 * length, or what its algorithm's {@link dev.limiter.core.WindowKind#keepsState} says
 * changes its meaning (a sliding window's resolution, a token bucket's limit). The Redis
 * store makes the same choice through its field names ({@code RedisKeys}).
 */
final class WindowLayout {

	private WindowLayout() {
	}

	/**
	 * Brings {@code state} to {@code windows}: every window takes the state its name had,
	 * unless that state means something else now.
	 */
	static void adopt(CounterState state, List<Window> windows) {
		List<Window> before = state.layout;
		if (before == windows) {
			return;
		}
		if (before != null && !before.equals(windows)) {
			state.rearrange(sources(before, windows));
		}
		state.layout = windows;
	}

	/**
	 * Whether a settlement reserved against {@code windows} can be applied to
	 * {@code state} as it stands: its windows are the very ones the state counts with.
	 */
	static boolean counts(CounterState state, List<Window> windows) {
		return state.layout == windows || windows.equals(state.layout);
	}

	/** Per window of {@code now}, the index in {@code before} it continues, or -1. */
	private static int[] sources(List<Window> before, List<Window> now) {
		int[] from = new int[now.size()];
		for (int i = 0; i < from.length; i++) {
			from[i] = -1;
			Window window = now.get(i);
			for (int j = 0; j < before.size(); j++) {
				Window earlier = before.get(j);
				if (earlier.name().equals(window.name())) {
					from[i] = compatible(earlier, window) ? j : -1;
					break;
				}
			}
		}
		return from;
	}

	static boolean compatible(Window before, Window now) {
		return before.algorithm() == now.algorithm() && before.durationMillis() == now.durationMillis()
				&& now.algorithm().kind().keepsState(before, now);
	}

}
