package dev.limiter.core;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The values a {@link Window} accepts, each rejected with an
 * {@link InvalidValueException} naming its {@link Window.Field}: the one place that says
 * what a window may be.
 */
final class WindowChecks {

	private static final Pattern UNIT = Pattern.compile("[a-z0-9-]{1,32}");

	private WindowChecks() {
	}

	static void check(String name, long limit, Duration duration, WindowAlgorithm algorithm, Long burst,
			Duration resolution, String unit) {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(duration, "duration");
		Objects.requireNonNull(algorithm, "algorithm");
		if (!BoundNames.isValid(name)) {
			throw new InvalidValueException(Window.Field.NAME, "",
					"window name must match [A-Za-z0-9_-]{1,32} and not be '" + BoundNames.CONCURRENCY + "', was '"
							+ name + "'");
		}
		if (limit < 1) {
			throw new InvalidValueException(Window.Field.LIMIT, "window '" + name + "': limit ",
					"must be at least 1, was " + limit);
		}
		// Above it a count plus a cost is no longer exact in the Redis scripts' numbers,
		// so
		// the two stores could disagree; no real limit comes near it.
		if (limit > SettlementBounds.MAX_UNITS) {
			throw new InvalidValueException(Window.Field.LIMIT, "window '" + name + "': limit ",
					"must be at most " + SettlementBounds.MAX_UNITS + " (2^50), was " + limit);
		}
		if (duration.toMillis() < 1) {
			throw new InvalidValueException(Window.Field.DURATION, "window '" + name + "': duration ",
					"must be at least 1ms, was " + duration);
		}
		if (unit == null || !UNIT.matcher(unit).matches()) {
			throw new InvalidValueException(Window.Field.UNIT, "window '" + name + "': unit ",
					"must be '" + Window.REQUESTS + "' or 1 to 32 of a-z, 0-9 and '-', was '" + unit + "'");
		}
		algorithm.kind().check(name, limit, duration, burst, resolution);
	}

	/**
	 * Checks what a window may carry beside its rate: {@code max-report}, a calendar,
	 * {@code notify-at}.
	 */
	static void checkOptions(String name, WindowAlgorithm algorithm, String unit, Long maxReport,
			CalendarPeriod calendar, NotifyAt notifyAt) {
		checkMaxReport(name, unit, maxReport);
		checkCalendar(name, algorithm, calendar);
		checkNotifyAt(name, algorithm, notifyAt);
	}

	/**
	 * Throws unless {@code burst} is {@code null}: for an algorithm that takes none, the
	 * message names the algorithms that do.
	 */
	static void rejectBurst(String name, Long burst, WindowAlgorithm algorithm) {
		if (burst != null) {
			throw new InvalidValueException(Window.Field.BURST, "window '" + name + "': burst ", "applies to a "
					+ takenBy(WindowKind::takesBurst) + " window only, this one is " + algorithm.value());
		}
	}

	/**
	 * Throws unless {@code resolution} is {@code null}: for an algorithm that takes none,
	 * the message names the algorithms that do.
	 */
	static void rejectResolution(String name, Duration resolution, WindowAlgorithm algorithm) {
		if (resolution != null) {
			throw new InvalidValueException(Window.Field.RESOLUTION, "window '" + name + "': resolution ",
					"applies to a " + takenBy(WindowKind::takesResolution) + " window only, this one is "
							+ algorithm.value());
		}
	}

	private static String takenBy(Predicate<WindowKind> takes) {
		return Arrays.stream(WindowAlgorithm.values())
			.filter((algorithm) -> takes.test(algorithm.kind()))
			.map(WindowAlgorithm::value)
			.collect(Collectors.joining(" or "));
	}

	/**
	 * Throws unless a window of {@code algorithm} has a calendar exactly when its kind
	 * takes one.
	 */
	static void checkCalendar(String name, WindowAlgorithm algorithm, CalendarPeriod calendar) {
		if (algorithm.kind().takesCalendar() && calendar == null) {
			throw new InvalidValueException(Window.Field.CALENDAR, "window '" + name + "': calendar ",
					"is required for a " + algorithm.value() + " window (day, week, month or year)");
		}
		if (!algorithm.kind().takesCalendar() && calendar != null) {
			throw new InvalidValueException(Window.Field.CALENDAR, "window '" + name + "': calendar ", "applies to a "
					+ takenBy(WindowKind::takesCalendar) + " window only, this one is " + algorithm.value());
		}
	}

	/** Throws unless {@code notifyAt} is {@code null} or its kind takes thresholds. */
	static void checkNotifyAt(String name, WindowAlgorithm algorithm, NotifyAt notifyAt) {
		if (notifyAt != null && !algorithm.kind().takesNotifyAt()) {
			throw new InvalidValueException(Window.Field.NOTIFY_AT, "window '" + name + "': notify-at ", "applies to a "
					+ takenBy(WindowKind::takesNotifyAt) + " window only, this one is " + algorithm.value());
		}
	}

	static void checkMaxReport(String name, String unit, Long maxReport) {
		if (maxReport != null && Window.REQUESTS.equals(unit)) {
			throw new InvalidValueException(Window.Field.MAX_REPORT, "window '" + name + "': max-report ",
					"applies to a window in a unit other than " + Window.REQUESTS + " only");
		}
		if (maxReport != null && maxReport < 1) {
			throw new InvalidValueException(Window.Field.MAX_REPORT, "window '" + name + "': max-report ",
					"must be at least 1, was " + maxReport);
		}
	}

}
