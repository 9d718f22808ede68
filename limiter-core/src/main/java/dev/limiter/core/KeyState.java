package dev.limiter.core;

import java.util.List;

/**
 * What a store holds for one key of one budget, read without counting.
 *
 * @param budget the budget's name
 * @param key the counter key
 * @param bounds every window in declaration order, then the concurrency bound if the
 * budget has one; {@code refused} says whether one more unit would be refused now
 * @param degraded whether the state was read from the in-process fallback because the
 * store cannot answer
 */
public record KeyState(String budget, String key, List<BoundVerdict> bounds, boolean degraded) {

	public KeyState {
		bounds = List.copyOf(bounds);
	}

	public KeyState(String budget, String key, List<BoundVerdict> bounds) {
		this(budget, key, bounds, false);
	}

	/** The same state, read from the fallback. */
	public KeyState asDegraded() {
		return new KeyState(budget, key, bounds, true);
	}
}
