package dev.limiter.core;

import java.time.Duration;

/**
 * A calendar window: at most its limit in each period of its {@link CalendarPeriod}, one
 * count per period, as a fixed window counts (a reservation counts in the period that
 * ends at its reset and lands there until that end). What a settlement takes beyond the
 * limit stays in its period: a new period starts at zero.
 */
final class CalendarWindowKind implements WindowKind {

	@Override
	public void check(String name, long limit, Duration duration, Long burst, Duration resolution) {
		WindowChecks.rejectBurst(name, burst, WindowAlgorithm.CALENDAR);
		WindowChecks.rejectResolution(name, resolution, WindowAlgorithm.CALENDAR);
	}

	@Override
	public boolean takesCalendar() {
		return true;
	}

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

	@Override
	public long settlementCeiling(Window window) {
		return SettlementBounds.MAX_UNITS;
	}

	@Override
	public boolean keepsState(Window before, Window now) {
		return before.calendar().equals(now.calendar());
	}

	@Override
	public String describe(Window window) {
		return ", algorithm=" + window.algorithm() + ", calendar=" + window.calendar().orElseThrow();
	}

}
