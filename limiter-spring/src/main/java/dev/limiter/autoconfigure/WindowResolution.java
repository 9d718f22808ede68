package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.function.Supplier;

import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.InvalidValueException;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * One window's properties as a core {@link Window} (for
 * {@link LimiterConfigurationResolver}): a {@code duration} or a {@code calendar} (with
 * its {@code zone} and {@code week-start}), never both, each rejected value named by its
 * property.
 */
final class WindowResolution {

	private WindowResolution() {
	}

	static Window window(String at, String name, WindowProperties properties) {
		long limit = required(at + ".limit", properties == null ? null : properties.getLimit());
		String value = properties.getAlgorithm();
		WindowAlgorithm algorithm = (value == null) ? null : core(at, () -> WindowAlgorithm.fromValue(value.trim()));
		if (properties.getCalendar() != null || algorithm == WindowAlgorithm.CALENDAR) {
			return calendarWindow(at, name, limit, algorithm, properties);
		}
		if (properties.getZone() != null || properties.getWeekStart() != null) {
			String property = (properties.getZone() != null) ? ".zone" : ".week-start";
			throw invalid(at + property, "applies to a calendar window only (set calendar: day, week, month or year)");
		}
		Duration duration = properties.getDuration();
		if (duration == null) {
			throw invalid(at + ".duration", "must be set (or calendar: day, week, month or year instead)");
		}
		Window window = core(at,
				() -> new Window(name, limit, duration, (algorithm != null) ? algorithm : WindowAlgorithm.DEFAULT,
						properties.getBurst(), properties.getResolution(), unit(properties))
					.withMaxReport(properties.getMaxReport())
					.withNotifyAt(notifyAt(properties)));
		if (window.durationMillis() % 1000 != 0) {
			// RateLimit-Policy's w, X-RateLimit-Window and Retry-After speak whole
			// seconds only
			throw invalid(at + ".duration", "must be a whole number of seconds (the rate-limit headers state "
					+ "windows in seconds), was " + duration);
		}
		return window;
	}

	/**
	 * A window with {@code calendar} (day, week, month, year) instead of a
	 * {@code duration}: both set, or neither, fails naming the property.
	 */
	private static Window calendarWindow(String at, String name, long limit, WindowAlgorithm algorithm,
			WindowProperties properties) {
		if (algorithm != null && algorithm != WindowAlgorithm.CALENDAR) {
			throw invalid(at + ".algorithm", "must be " + WindowAlgorithm.CALENDAR.value()
					+ " (or unset) for a window with a calendar, was '" + properties.getAlgorithm() + "'");
		}
		if (properties.getCalendar() == null) {
			throw invalid(at + ".calendar", "must be set for a calendar window (day, week, month or year)");
		}
		if (properties.getDuration() != null) {
			throw invalid(at + ".calendar", "and duration are both set; a window has one or the other "
					+ "(calendar: day, week, month or year; duration: any fixed length)");
		}
		CalendarPeriod period = core(at,
				() -> CalendarPeriod.parse(properties.getCalendar(), properties.getZone(), properties.getWeekStart()));
		return core(at,
				() -> Window.calendar(name, limit, period)
					.inUnit(unit(properties))
					.withMaxReport(properties.getMaxReport())
					.withNotifyAt(notifyAt(properties)));
	}

	/** Its thresholds, {@code null} when {@code notify-at} is unset. */
	private static NotifyAt notifyAt(WindowProperties properties) {
		return (properties.getNotifyAt() != null) ? NotifyAt.parse(properties.getNotifyAt()) : null;
	}

	private static String unit(WindowProperties properties) {
		return (properties.getUnit() != null) ? properties.getUnit().trim() : Window.REQUESTS;
	}

	private static long required(String property, Long value) {
		if (value == null) {
			throw invalid(property, "must be set");
		}
		return value;
	}

	private static <T> T core(String at, Supplier<T> constructor) {
		try {
			return constructor.get();
		}
		catch (InvalidValueException ex) {
			throw FieldProperties.invalid(at, ex);
		}
	}

	private static InvalidLimiterConfigurationException invalid(String property, String reason) {
		return FieldProperties.invalid(property, reason);
	}

}
