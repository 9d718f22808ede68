package dev.limiter.core.guard;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Keys an instance of the guard remembers, each until its own end: a bounded number of
 * them; when full of entries still running it stops learning, and the store answers as
 * before (the safe direction).
 */
final class ExpiringKeys {

	private final int maxKeys;

	private final ConcurrentHashMap<String, Long> ends = new ConcurrentHashMap<>();

	ExpiringKeys(int maxKeys) {
		this.maxKeys = maxKeys;
	}

	/**
	 * The end of an entry still running at {@code nowMillis}, else 0 (and an ended entry
	 * is dropped).
	 */
	long until(String key, long nowMillis) {
		Long until = ends.get(key);
		if (until == null) {
			return 0;
		}
		if (until > nowMillis) {
			return until;
		}
		ends.remove(key, until);
		return 0;
	}

	boolean contains(String key, long nowMillis) {
		return until(key, nowMillis) > 0;
	}

	/**
	 * Remembers {@code key} until {@code until} (or longer, if it already was), unless
	 * the memory is full of entries still running.
	 */
	void remember(String key, long until, long nowMillis) {
		if (until <= nowMillis) {
			return;
		}
		if (ends.size() >= maxKeys && !ends.containsKey(key)) {
			ends.values().removeIf(end -> end <= nowMillis);
			if (ends.size() >= maxKeys) {
				return;
			}
		}
		ends.merge(key, until, Math::max);
	}

	/** Forgets {@code key}; whether it was remembered (running or not). */
	boolean forget(String key) {
		return ends.remove(key) != null;
	}

}
