package dev.limiter.core.internal;

import dev.limiter.core.Window;

import java.util.Arrays;
import java.util.List;

/**
 * The mutable counters of one key of one budget: per window its start and count, plus the
 * leases held. Not thread-safe: the owner serializes access. Kept to two arrays so an
 * idle two-window key stays small.
 */
public class CounterState {

	/**
	 * {@code [reset0, count0, reset1, count1, ...]} in the budget's window order. Keeping
	 * the window's end rather than its start lets a state tell whether it is idle without
	 * knowing its budget.
	 */
	long[] windows;

	/**
	 * The windows every stored reset was computed from, {@code null} until the first
	 * decision: while a decision's budget has these very windows, each stored reset is a
	 * multiple of its window's length, so the window that counts now can be recognised
	 * without a division.
	 */
	List<Window> shape;

	/** Lease ids, {@code null} until the first lease. */
	String[] leaseIds;

	/** Lease expiries, parallel to {@link #leaseIds}. */
	long[] leaseExpiries;

	int leaseCount;

	CounterState(int windowCount) {
		this.windows = new long[windowCount * 2];
	}

	/**
	 * Forgets every count and lease and takes {@code windowCount} windows: what a budget
	 * whose number of windows changed under the same name starts from.
	 */
	void clear(int windowCount) {
		windows = new long[windowCount * 2];
		shape = null;
		leaseIds = null;
		leaseExpiries = null;
		leaseCount = 0;
	}

	/**
	 * Whether nothing here still matters at {@code nowMillis}: every window ended, every
	 * lease expired.
	 */
	boolean isIdle(long nowMillis) {
		for (int i = 0; i < windows.length; i += 2) {
			if (windows[i] > nowMillis) {
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

	int windowCount() {
		return windows.length / 2;
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
