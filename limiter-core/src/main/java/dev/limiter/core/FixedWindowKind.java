package dev.limiter.core;

import java.time.Duration;

/**
 * A fixed window: at most its limit in each wall-clock-anchored duration; a reservation
 * counts in the window that ends at its reset, and lands there until that end.
 */
final class FixedWindowKind implements WindowKind {

	@Override
	public void check(String name, long limit, Duration duration, Long burst, Duration resolution) {
		WindowChecks.rejectBurst(name, burst, WindowAlgorithm.FIXED_WINDOW);
		WindowChecks.rejectResolution(name, resolution, WindowAlgorithm.FIXED_WINDOW);
	}

	/**
	 * A fixed window has periods: its thresholds are reached once per window instance,
	 * counted as a calendar window's are (ADR 0015).
	 */
	@Override
	public boolean takesNotifyAt() {
		return true;
	}

	@Override
	public long reservedInstance(Window window, BoundVerdict verdict) {
		return verdict.resetAtMillis();
	}

	@Override
	public boolean lands(Window window, long instance, long nowMillis) {
		return nowMillis < instance;
	}

	/** A fixed window's units count in it until its end. */
	@Override
	public long sliceEndMillis(Window window, long instance, long nowMillis) {
		return instance;
	}

	@Override
	public long settlementCeiling(Window window) {
		return SettlementBounds.MAX_UNITS;
	}

	@Override
	public boolean keepsState(Window before, Window now) {
		return true;
	}

	@Override
	public String describe(Window window) {
		return "";
	}

}
