package dev.limiter.core;

import java.util.Arrays;
import java.util.List;

/**
 * How a {@link Window} counts: the value of
 * {@code limiter.budgets.<name>.windows.<w>.algorithm}.
 */
public enum WindowAlgorithm {

	/**
	 * At most {@code limit} in each wall-clock-anchored {@code duration}; one counter per
	 * key. The {@link #DEFAULT}.
	 */
	FIXED_WINDOW("fixed-window", new FixedWindowKind()),

	/**
	 * Never more than {@code limit} admissions in any span of length {@code duration};
	 * admissions kept in sub-interval buckets whose expiry is rounded later.
	 */
	SLIDING_WINDOW("sliding-window", new SlidingWindowKind()),

	/**
	 * A bucket of {@code burst} tokens refilled continuously at {@code limit} per
	 * {@code duration}, as the generic cell rate algorithm (one timestamp per key).
	 */
	TOKEN_BUCKET("token-bucket", new TokenBucketKind()),

	/**
	 * At most {@code limit} in each period of a {@link CalendarPeriod} (a day, week,
	 * month or year from local midnight in a time zone); one count per period, as a fixed
	 * window counts. Set by {@code calendar} instead of {@code duration}.
	 */
	CALENDAR("calendar", new CalendarWindowKind());

	/** The algorithm of a window that names none. */
	public static final WindowAlgorithm DEFAULT = FIXED_WINDOW;

	private final String value;

	private final WindowKind kind;

	WindowAlgorithm(String value, WindowKind kind) {
		this.value = value;
		this.kind = kind;
	}

	/** What the algorithm decides about its windows, apart from how it counts. */
	public WindowKind kind() {
		return kind;
	}

	/** The configuration value, such as {@code sliding-window}. */
	public String value() {
		return value;
	}

	/** Every configuration value, in declaration order. */
	public static List<String> configurationValues() {
		return Arrays.stream(values()).map(WindowAlgorithm::value).toList();
	}

	/**
	 * The algorithm named by a configuration value (also accepted in upper case with
	 * underscores, as Spring's relaxed binding writes enum constants).
	 * @throws IllegalArgumentException naming the valid values when none matches
	 */
	public static WindowAlgorithm fromValue(String value) {
		for (WindowAlgorithm algorithm : values()) {
			if (algorithm.value.equalsIgnoreCase(value) || algorithm.name().equalsIgnoreCase(value)) {
				return algorithm;
			}
		}
		throw new InvalidValueException(Window.Field.ALGORITHM, "algorithm ",
				"must be one of " + String.join(", ", configurationValues()) + ", was '" + value + "'");
	}

	@Override
	public String toString() {
		return value;
	}

}
