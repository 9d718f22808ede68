package dev.limiter.core;

import dev.limiter.core.internal.InMemoryRateLimitStore;

/**
 * Factories for the stores that ship with the core: the one way from outside
 * {@code dev.limiter.core.internal} to what it implements.
 */
public final class RateLimitStores {

	private RateLimitStores() {
	}

	/** Counters in this process, never more than {@code maxKeys} keys at once. */
	public static InProcessRateLimitStore inMemory(int maxKeys) {
		return new InMemoryRateLimitStore(maxKeys);
	}

}
