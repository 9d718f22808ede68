package dev.limiter.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;

/**
 * One key of one budget in the {@link InMemoryRateLimitStore}: its counters, where it is
 * indexed and its place in its segment's eviction queue. The entry's own lock
 * ({@link #lock()}) guards its counters and {@link #removed}; its segment's monitor
 * guards the queue links.
 *
 * <p>
 * The lock is a flag taken with one compare-and-set and given back with a plain release
 * store: a monitor costs two atomic instructions per decision, and what it holds here is
 * a few dozen nanoseconds of arithmetic that never blocks. A thread that finds it taken
 * spins a few times (longer than the lock is held), then yields its processor: when the
 * holder is not running (preempted, more threads than processors) spinning only delays
 * it, and a waiter that backs off lets a running holder go on through its next decisions
 * with the key's cache line at hand. On one hot key at 32 threads on 2 processors, 4
 * spins decided about twice as many requests a second as 64 (docs/benchmarks.md).
 */
final class StoreEntry extends CounterState {

	private static final VarHandle LOCKED;

	static {
		try {
			LOCKED = MethodHandles.lookup().findVarHandle(StoreEntry.class, "locked", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private static final int SPINS = 4;

	@SuppressWarnings("unused") // through LOCKED
	private volatile int locked;

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

	void lock() {
		if (!LOCKED.compareAndSet(this, 0, 1)) {
			lockContended();
		}
	}

	void unlock() {
		LOCKED.setRelease(this, 0);
	}

	private void lockContended() {
		for (int spins = 0;; spins++) {
			if ((int) LOCKED.getOpaque(this) == 0 && LOCKED.compareAndSet(this, 0, 1)) {
				return;
			}
			if (spins < SPINS) {
				Thread.onSpinWait();
			}
			else {
				Thread.yield();
			}
		}
	}

}
