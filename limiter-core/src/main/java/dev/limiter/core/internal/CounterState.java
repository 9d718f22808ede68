package dev.limiter.core.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Window;

/**
 * The mutable counters of one key of one budget: per window its start and count, plus the
 * leases held. Not thread-safe: the owner serializes access. The first two windows live
 * in fields and only further windows in an array, so a key of one or two windows holds no
 * array until it takes a lease.
 */
public class CounterState {

	/*
	 * Per window, in the budget's window order, the end of the window counted in and its
	 * count. Keeping the window's end rather than its start lets a state tell whether it
	 * is idle without knowing its budget. The usual one or two windows live in fields,
	 * beside the lock and the rest of the state, rather than in an array of their own:
	 * one object and one cache line less per decision.
	 */

	private long reset0;

	private long count0;

	private long reset1;

	private long count1;

	/**
	 * {@code [reset2, count2, reset3, count3, ...]}, {@code null} for one or two windows.
	 */
	private long[] more;

	private int windowCount;

	/**
	 * The windows every stored reset was computed from, {@code null} until the first
	 * decision: while a decision's budget has these very windows, each stored reset is a
	 * multiple of its window's length, so the window that counts now can be recognised
	 * without a division.
	 */
	List<Window> shape;

	/**
	 * The windows the last decision counted with, {@code null} before any: each window's
	 * state follows its name when the budget's windows change, and a window whose
	 * algorithm (or a parameter its stored state depends on) changed under the same name
	 * starts afresh ({@link WindowLayout}).
	 */
	List<Window> layout;

	/**
	 * Per window, a sliding window's buckets ({@link SlidingWindowArithmetic});
	 * {@code null} until a sliding window counts.
	 */
	long[][] slides;

	/** Lease ids, {@code null} until the first lease. */
	String[] leaseIds;

	/** Lease expiries, parallel to {@link #leaseIds}. */
	long[] leaseExpiries;

	int leaseCount;

	/**
	 * Per window name with {@code notify-at}: the end of the period its thresholds were
	 * last reached in and the highest threshold reached there
	 * ({@link ThresholdCrossings}); {@code null} until one is.
	 */
	Map<String, long[]> notified;

	CounterState(int windowCount) {
		this.windowCount = windowCount;
		this.more = (windowCount > 2) ? new long[(windowCount - 2) * 2] : null;
	}

	/**
	 * Takes a new list of windows: window {@code i} of the new list continues what window
	 * {@code from[i]} of the current list counted (its end, count and sliding buckets),
	 * or starts from nothing where {@code from[i]} is -1. Leases stay.
	 */
	void rearrange(int[] from) {
		int size = from.length;
		long[] resets = new long[size];
		long[] counts = new long[size];
		long[][] buckets = new long[size][];
		for (int i = 0; i < size; i++) {
			if (from[i] >= 0) {
				resets[i] = reset(from[i]);
				counts[i] = count(from[i]);
				buckets[i] = slide(from[i]);
			}
		}
		windowCount = size;
		more = (size > 2) ? new long[(size - 2) * 2] : null;
		reset1 = 0;
		count1 = 0;
		slides = null;
		for (int i = 0; i < size; i++) {
			restart(i, resets[i]);
			count(i, counts[i]);
			slide(i, buckets[i]);
		}
		shape = null;
	}

	/**
	 * Whether nothing here still matters at {@code nowMillis}: every window ended (and
	 * what a fixed window carries was paid, {@link FixedWindowDebt}), every lease
	 * expired.
	 */
	boolean isIdle(long nowMillis) {
		for (int i = 0; i < windowCount; i++) {
			long until = (layout != null) ? WindowArithmetic.of(layout.get(i)).keptUntil(layout.get(i), this, i)
					: reset(i);
			if (until > nowMillis) {
				return false;
			}
		}
		for (int i = 0; i < leaseCount; i++) {
			if (leaseExpiries[i] > nowMillis) {
				return false;
			}
		}
		return true;
	}

	/** The end of the window {@code i} last counted in; 0 before any. */
	long reset(int i) {
		return (i == 0) ? reset0 : (i == 1) ? reset1 : more[2 * (i - 2)];
	}

	/** Units counted in the window {@link #reset(int)} ends. */
	long count(int i) {
		return (i == 0) ? count0 : (i == 1) ? count1 : more[2 * (i - 2) + 1];
	}

	/**
	 * Moves window {@code i} to the one ending at {@code reset}, with nothing counted.
	 */
	void restart(int i, long reset) {
		if (i == 0) {
			reset0 = reset;
			count0 = 0;
		}
		else if (i == 1) {
			reset1 = reset;
			count1 = 0;
		}
		else {
			more[2 * (i - 2)] = reset;
			more[2 * (i - 2) + 1] = 0;
		}
	}

	void count(int i, long count) {
		if (i == 0) {
			count0 = count;
		}
		else if (i == 1) {
			count1 = count;
		}
		else {
			more[2 * (i - 2) + 1] = count;
		}
	}

	/** Window {@code i}'s sliding buckets, {@code null} when none is held. */
	long[] slide(int i) {
		return (slides != null) ? slides[i] : null;
	}

	void slide(int i, long[] buckets) {
		if (slides == null) {
			if (buckets == null) {
				return;
			}
			slides = new long[windowCount][];
		}
		slides[i] = buckets;
	}

	void addLease(String id, long expiresAt) {
		if (leaseIds == null) {
			leaseIds = new String[2];
			leaseExpiries = new long[2];
		}
		else if (leaseCount == leaseIds.length) {
			leaseIds = Arrays.copyOf(leaseIds, leaseCount * 2);
			leaseExpiries = Arrays.copyOf(leaseExpiries, leaseCount * 2);
		}
		leaseIds[leaseCount] = id;
		leaseExpiries[leaseCount] = expiresAt;
		leaseCount++;
	}

	boolean removeLease(String id) {
		for (int i = 0; i < leaseCount; i++) {
			if (leaseIds[i].equals(id)) {
				removeLeaseAt(i);
				return true;
			}
		}
		return false;
	}

	/**
	 * Moves a live lease's expiry to {@code expiresAt} (never earlier); false when it is
	 * gone or expired at {@code nowMillis}.
	 */
	boolean renewLease(String id, long expiresAt, long nowMillis) {
		for (int i = 0; i < leaseCount; i++) {
			if (leaseIds[i].equals(id)) {
				if (leaseExpiries[i] <= nowMillis) {
					return false;
				}
				leaseExpiries[i] = Math.max(leaseExpiries[i], expiresAt);
				return true;
			}
		}
		return false;
	}

	void dropExpiredLeases(long nowMillis) {
		for (int i = leaseCount - 1; i >= 0; i--) {
			if (leaseExpiries[i] <= nowMillis) {
				removeLeaseAt(i);
			}
		}
	}

	long earliestLeaseExpiry(long otherwise) {
		long earliest = Long.MAX_VALUE;
		for (int i = 0; i < leaseCount; i++) {
			earliest = Math.min(earliest, leaseExpiries[i]);
		}
		return leaseCount == 0 ? otherwise : earliest;
	}

	private void removeLeaseAt(int i) {
		int last = leaseCount - 1;
		leaseIds[i] = leaseIds[last];
		leaseExpiries[i] = leaseExpiries[last];
		leaseIds[last] = null;
		leaseCount = last;
		if (leaseCount == 0) {
			leaseIds = null;
			leaseExpiries = null;
		}
	}

}
