package dev.limiter.core.guard;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keys an instance of the guard remembers, each until its own end: a bounded number of
 * them; when full of entries still running it stops learning, and the store answers as
 * before (the safe direction).
 * <p>
 * A full memory is swept for ended entries only once one may have ended, and at most once
 * per {@link #SWEEP_INTERVAL_MILLIS}: callers choose the keys (a flood of distinct
 * addresses failing to authenticate), and a sweep per new key would make each of their
 * requests pay a walk over every entry.
 */
final class ExpiringKeys {

	/** The shortest time between two sweeps of a full memory. */
	static final long SWEEP_INTERVAL_MILLIS = 100;

	private final int maxKeys;

	private final ConcurrentHashMap<String, Long> ends = new ConcurrentHashMap<>();

	/**
	 * When a full memory may be swept next: not before its earliest entry ends, nor
	 * within {@link #SWEEP_INTERVAL_MILLIS} of the last sweep. A race may leave it late
	 * (the memory then learns nothing new a little longer: the safe direction).
	 */
	private volatile long nextSweepMillis = Long.MIN_VALUE;

	private volatile long earliestEndMillis = Long.MAX_VALUE;

	private final AtomicLong sweeps = new AtomicLong();

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
		Long known = ends.get(key);
		if (known != null && known >= until) {
			// What the merge below would keep, read without taking the map's bin lock:
			// a key remembered on every request of a hot credential is written at most
			// once per millisecond of its end, and its requests do not queue on the
			// lock.
			return;
		}
		if (ends.size() >= maxKeys && !ends.containsKey(key)) {
			if (nowMillis < Math.max(nextSweepMillis, earliestEndMillis) || !sweep(nowMillis)) {
				return;
			}
		}
		ends.merge(key, until, Math::max);
		if (until < earliestEndMillis) {
			earliestEndMillis = until;
		}
	}

	/** Drops the ended entries; whether there is room now. */
	private synchronized boolean sweep(long nowMillis) {
		if (nowMillis >= nextSweepMillis) {
			sweeps.incrementAndGet();
			long earliest = Long.MAX_VALUE;
			for (Iterator<Long> entries = ends.values().iterator(); entries.hasNext();) {
				long end = entries.next();
				if (end <= nowMillis) {
					entries.remove();
				}
				else if (end < earliest) {
					earliest = end;
				}
			}
			earliestEndMillis = earliest;
			nextSweepMillis = nowMillis + SWEEP_INTERVAL_MILLIS;
		}
		return ends.size() < maxKeys;
	}

	/** How many times a full memory was swept (for tests). */
	long sweeps() {
		return sweeps.get();
	}

	/** Forgets {@code key}; whether it was remembered (running or not). */
	boolean forget(String key) {
		return ends.remove(key) != null;
	}

}
