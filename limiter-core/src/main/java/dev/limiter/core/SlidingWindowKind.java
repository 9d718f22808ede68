package dev.limiter.core;

import java.time.Duration;

/**
 * A sliding window (ADR 0008): buckets of its resolution; a reservation counts in the
 * newest bucket, and lands there until that bucket ages out. Its buckets are numbered by
 * the resolution, so another resolution starts afresh.
 */
final class SlidingWindowKind implements WindowKind {

	@Override
	public void check(String name, long limit, Duration duration, Long burst, Duration resolution) {
		WindowChecks.rejectBurst(name, burst, WindowAlgorithm.SLIDING_WINDOW);
		if (resolution != null && (resolution.toMillis() < 1 || resolution.toMillis() > duration.toMillis())) {
			throw new InvalidValueException(Window.Field.RESOLUTION, "window '" + name + "': resolution ",
					"must be between 1ms and the duration " + duration + ", was " + resolution);
		}
	}

	@Override
	public boolean takesResolution() {
		return true;
	}

	@Override
	public long resolutionMillis(long durationMillis, Duration resolution) {
		return (resolution != null) ? resolution.toMillis() : Window.defaultResolutionMillis(durationMillis);
	}

	/**
	 * An admission counts in the newest bucket, which the reset names: (newest + 1) *
	 * resolution + duration.
	 */
	@Override
	public long reservedInstance(Window window, BoundVerdict verdict) {
		return (verdict.resetAtMillis() - window.durationMillis()) / window.resolutionMillis() - 1;
	}

	@Override
	public boolean lands(Window window, long instance, long nowMillis) {
		return (instance + 1) * window.resolutionMillis() + window.durationMillis() > nowMillis;
	}

	/**
	 * Until the end of the bucket its units count in: spent later, a unit would age out
	 * of the window before a span of it that includes its admission has passed.
	 */
	@Override
	public long sliceEndMillis(Window window, long instance, long nowMillis) {
		return (instance + 1) * window.resolutionMillis();
	}

	@Override
	public long settlementCeiling(Window window) {
		return SettlementBounds.MAX_UNITS;
	}

	@Override
	public boolean keepsState(Window before, Window now) {
		return before.resolutionMillis() == now.resolutionMillis();
	}

	@Override
	public String describe(Window window) {
		return ", algorithm=" + window.algorithm() + ", resolution=" + window.resolutionMillis() + "ms";
	}

}
