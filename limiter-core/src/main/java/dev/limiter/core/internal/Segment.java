package dev.limiter.core.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A share of one partition of the {@link InMemoryRateLimitStore}: the keys the keyed hash
 * placed here, in an eviction queue that approximates least-recently-used order with a
 * clock (second chance). A new key joins at the tail; every decision marks its key
 * referenced; the eviction hand at the head moves a referenced key to the tail, clearing
 * the mark, and evicts the first one it finds unmarked. A key used since the hand last
 * passed it is therefore never evicted before one that was not.
 *
 * <p>
 * Only inserting, evicting, sweeping and resetting take this segment's monitor; every
 * method here needs it held. A decision on a known key takes only that key's lock, which
 * is why use is a mark rather than a move in a list.
 */
final class Segment {

	/** Idle keys looked at per sweep. */
	private static final int SWEEP_STEPS = 8;

	/**
	 * A segment sweeps once every this many new keys (a power of two): keys only take
	 * room when new ones arrive.
	 */
	private static final int SWEEP_EVERY = 16;

	private final int capacity;

	/** Keys held across the whole store. */
	private final AtomicInteger held;

	private StoreEntry head;

	private StoreEntry tail;

	private int size;

	private int insertions;

	Segment(int capacity, AtomicInteger held) {
		this.capacity = capacity;
		this.held = held;
	}

	/**
	 * Queues a new entry (already in its index) at the tail, evicting one key if the
	 * segment is now over its capacity.
	 */
	void add(StoreEntry entry) {
		link(entry);
		size++;
		held.incrementAndGet();
		insertions++;
		if (size > capacity) {
			evictEldest();
		}
	}

	int size() {
		return size;
	}

	/** Drops the key the clock's hand settles on; false when there is none. */
	boolean evictEldest() {
		// Bounded: one pass clears every mark, so the second finds an unmarked key.
		for (int steps = 0; head != null && steps <= size; steps++) {
			StoreEntry candidate = head;
			if (!candidate.referenced) {
				remove(candidate);
				return true;
			}
			candidate.referenced = false;
			unlink(candidate);
			link(candidate);
		}
		if (head == null) {
			return false;
		}
		remove(head);
		return true;
	}

	/**
	 * Drops {@code entry} from this segment and its index and marks it removed for a
	 * decision that found it just before.
	 */
	void remove(StoreEntry entry) {
		entry.lock();
		entry.removed = true;
		entry.unlock();
		entry.home.remove(entry.key, entry);
		unlink(entry);
		size--;
		held.decrementAndGet();
	}

	/**
	 * Once every {@link #SWEEP_EVERY} new keys, looks at a few keys from the head and
	 * drops those idle since {@code idleSinceMillis}; a key still in use goes to the tail
	 * so that the next sweep looks further.
	 */
	void sweep(long idleSinceMillis) {
		if ((insertions & (SWEEP_EVERY - 1)) != 0) {
			return;
		}
		for (int step = 0; step < SWEEP_STEPS && head != null; step++) {
			StoreEntry candidate = head;
			candidate.lock();
			boolean idle = candidate.isIdle(idleSinceMillis);
			candidate.unlock();
			if (idle) {
				remove(candidate);
			}
			else {
				unlink(candidate);
				link(candidate);
			}
		}
	}

	private void link(StoreEntry entry) {
		entry.previous = tail;
		entry.next = null;
		if (tail == null) {
			head = entry;
		}
		else {
			tail.next = entry;
		}
		tail = entry;
	}

	private void unlink(StoreEntry entry) {
		if (entry.previous == null) {
			head = entry.next;
		}
		else {
			entry.previous.next = entry.next;
		}
		if (entry.next == null) {
			tail = entry.previous;
		}
		else {
			entry.next.previous = entry.previous;
		}
		entry.previous = null;
		entry.next = null;
	}

}
