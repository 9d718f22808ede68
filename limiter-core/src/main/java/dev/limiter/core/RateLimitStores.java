package dev.limiter.core;

import dev.limiter.core.internal.InMemoryRateLimitStore;

/** Factories for the stores that ship with the core. */
public final class RateLimitStores {

	private RateLimitStores() {
	}

	/** Counters in this process, never more than {@code maxKeys} keys at once. */
	public static RateLimitStore inMemory(int maxKeys) {
		return new InMemoryRateLimitStore(maxKeys);
	}

}
