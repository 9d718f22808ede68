package dev.limiter.core.internal;

import java.util.Map;

/**
 * One key of one budget in the {@link InMemoryRateLimitStore}: its counters, where it is
 * indexed and its place in its segment's eviction queue. The entry's own monitor guards
 * its counters and {@link #removed}; its segment's monitor guards the queue links.
 */
final class StoreEntry extends CounterState {

	/** The index of the entry's budget, where it is found by its key. */
	final Map<String, StoreEntry> home;

	final String key;

	final Segment segment;

	/**
	 * Set under this entry's lock once it has left the index: a decision that found it
	 * just before must look the key up again rather than count in a forgotten entry.
	 */
	boolean removed;

	/**
	 * Set by every decision, cleared by the eviction clock when it passes: a second
	 * chance that keeps recently used keys over idle ones. A plain field: a lost update
	 * only changes which of two keys is evicted first.
	 */
	boolean referenced = true;

	StoreEntry previous;

	StoreEntry next;

	StoreEntry(Map<String, StoreEntry> home, String key, Segment segment, int windowCount) {
		super(windowCount);
		this.home = home;
		this.key = key;
		this.segment = segment;
	}

}
