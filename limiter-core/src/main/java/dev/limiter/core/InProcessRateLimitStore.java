package dev.limiter.core;

/**
 * A store that holds its counters in this process, bounded to {@link #maxKeys} keys: what
 * {@link RateLimitStores#inMemory} returns, so that nothing outside the core names its
 * implementation.
 */
public interface InProcessRateLimitStore extends RateLimitStore {

	/** Keys held right now. */
	int size();

	/** The most keys held at once. */
	int maxKeys();

}
