package dev.limiter.core.internal;

import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;

/**
 * What a fixed window in a unit other than requests counted beyond its limit, carried
 * into the windows after it until paid (ADR 0012): the window after one that ended at
 * {@code c} units starts at {@code c - limit}, the one after that at
 * {@code c - 2 * limit}, never below zero. A settlement can take a window over its limit
 * (reservations of the estimate fitted, the reports did not); carrying the excess is what
 * keeps the usage admitted over any run of windows within their limits plus what was in
 * flight once. A window of requests carries nothing: only a cost known before the
 * decision counts there. {@code take.lua} is the only other implementation.
 */
final class FixedWindowDebt {

	private FixedWindowDebt() {
	}

	/**
	 * What the window ending at {@code reset} starts with when the stored window ended at
	 * {@code storedReset} with {@code storedCount} counted.
	 */
	static long carried(Window w, long storedReset, long storedCount, long reset) {
		if (w.countsRequests() || storedCount <= w.limit() || storedReset <= 0 || reset <= storedReset) {
			return 0;
		}
		long windows = (reset - storedReset) / w.durationMillis();
		return Math.max(0, storedCount - SettlementBounds.saturatedProduct(windows, w.limit()));
	}

	/**
	 * Until when a window that ends at {@code reset} with {@code count} counted still
	 * matters: its end, or the end of the last window its excess is carried into.
	 */
	static long keepUntil(Window w, long reset, long count) {
		if (w.countsRequests() || count <= w.limit()) {
			return reset;
		}
		long windows = (count - 1) / w.limit();
		long carry = Math.min(SettlementBounds.MAX_KEEP_MILLIS,
				SettlementBounds.saturatedProduct(windows, w.durationMillis()));
		return SettlementBounds.saturatedSum(reset, carry);
	}

	/**
	 * When the window ending at {@code reset} with {@code count} counted has room for
	 * {@code cost} again: its reset, or the start of the first window after it whose
	 * carried count leaves room.
	 */
	static long retryAt(Window w, long reset, long count, long cost) {
		if (w.countsRequests()) {
			return reset;
		}
		long windows = (SettlementBounds.saturatedSum(count, cost) - 1) / w.limit();
		if (windows <= 1) {
			return reset;
		}
		long carry = Math.min(SettlementBounds.MAX_KEEP_MILLIS,
				SettlementBounds.saturatedProduct(windows - 1, w.durationMillis()));
		return SettlementBounds.saturatedSum(reset, carry);
	}

}
