package dev.limiter.core;

import java.time.Duration;

/**
 * What one window algorithm decides about its windows, apart from how it counts (its
 * arithmetic lives in {@code dev.limiter.core.internal}, its script encoding in
 * {@code dev.limiter.redis}): its parameters and their checks, its capacity, the instance
 * a reservation counts in and how long a settlement still lands there, the ceiling of a
 * settlement, and when a stored state still means the same after a refresh. One
 * implementation per {@link WindowAlgorithm}, which {@link WindowAlgorithm#kind()}
 * returns.
 */
public sealed interface WindowKind permits FixedWindowKind, SlidingWindowKind, TokenBucketKind, CalendarWindowKind {

	/**
	 * Throws {@link InvalidValueException} unless the algorithm's own parameters fit
	 * ({@code burst}, {@code resolution}, the limit against the duration); the common
	 * values are checked by {@code WindowChecks}.
	 */
	void check(String name, long limit, Duration duration, Long burst, Duration resolution);

	/** Whether the window takes a {@code burst}; none by default. */
	default boolean takesBurst() {
		return false;
	}

	/** Whether the window takes a {@code calendar} period; none by default. */
	default boolean takesCalendar() {
		return false;
	}

	/**
	 * Whether the window takes {@code notify-at} thresholds, reached once per period;
	 * none by default.
	 */
	default boolean takesNotifyAt() {
		return false;
	}

	/** Whether the window takes a {@code resolution}; none by default. */
	default boolean takesResolution() {
		return false;
	}

	/**
	 * The bucket length of a window of {@code durationMillis}: the resolution when the
	 * algorithm takes one ({@code null}: the default), the duration otherwise.
	 */
	default long resolutionMillis(long durationMillis, Duration resolution) {
		return durationMillis;
	}

	/** The most one request may cost in {@code window}: its limit by default. */
	default long capacity(Window window) {
		return window.limit();
	}

	/** What {@link #capacity} is called in messages: {@code limit} or {@code burst}. */
	default String capacityName() {
		return "limit";
	}

	/**
	 * The instance of {@code window} an admission counted in, read from its verdict
	 * ({@link Reservation}).
	 */
	long reservedInstance(Window window, BoundVerdict verdict);

	/**
	 * Whether {@code instance} of {@code window} still counts at {@code nowMillis}, so
	 * that a settlement's delta lands there ({@link Settlement#lands}).
	 */
	boolean lands(Window window, long instance, long nowMillis);

	/**
	 * Until when units a slice counted in {@code instance} of {@code window} may be
	 * admitted locally without any span of the window seeing more than its limit (ADR
	 * 0014): the end of the instance they are counted in. By default not after
	 * {@code nowMillis}: an algorithm that does not say is never sliced.
	 */
	default long sliceEndMillis(Window window, long instance, long nowMillis) {
		return nowMillis;
	}

	/**
	 * Until when a slice's unspent units may go back to the instance it counted in,
	 * {@code verdict} being the slice's: while the window is as if they had never been
	 * taken. By default for as long as a settlement lands there.
	 */
	default long sliceGiveBackUntil(Window window, BoundVerdict verdict) {
		return Long.MAX_VALUE;
	}

	/** The largest delta, either way, a settlement applies to {@code window}. */
	long settlementCeiling(Window window);

	/**
	 * Whether a state kept for {@code before} still means the same for {@code now}, two
	 * windows of this algorithm and the same duration (a refresh that changed a budget's
	 * windows).
	 */
	boolean keepsState(Window before, Window now);

	/**
	 * What {@link Window#toString} adds for the algorithm's parameters, {@code ""} for
	 * none.
	 */
	String describe(Window window);

}
