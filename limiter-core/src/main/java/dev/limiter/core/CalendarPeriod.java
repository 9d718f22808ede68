package dev.limiter.core;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Objects;

/**
 * The periods of a calendar window ({@link WindowAlgorithm#CALENDAR}): a day, a week, a
 * month or a year, each running from local midnight of its first day in {@link #zone()}
 * to local midnight of the next period's first day. A period is therefore as long as the
 * calendar makes it: a day of 23 or 25 hours across a daylight-saving change, a month of
 * 28 to 31 days, a leap year of 366. Immutable; time is a parameter.
 *
 * <p>
 * Only Java computes the bounds (the Redis script has no time-zone database): the store
 * sends the end of the period containing now, and the script counts a fixed window with
 * that explicit end.
 */
public final class CalendarPeriod {

	/** The week's first day when {@code week-start} is unset. */
	public static final DayOfWeek DEFAULT_WEEK_START = DayOfWeek.MONDAY;

	private final Unit unit;

	private final ZoneId zone;

	private final DayOfWeek weekStart;

	private CalendarPeriod(Unit unit, ZoneId zone, DayOfWeek weekStart) {
		this.unit = Objects.requireNonNull(unit, "unit");
		this.zone = Objects.requireNonNull(zone, "zone").normalized();
		this.weekStart = Objects.requireNonNull(weekStart, "weekStart");
	}

	/** A period of {@code unit} in {@code zone}; weeks start on Monday. */
	public static CalendarPeriod of(Unit unit, ZoneId zone) {
		return new CalendarPeriod(unit, zone, DEFAULT_WEEK_START);
	}

	/**
	 * A period of {@code unit} in {@code zone}, weeks starting on {@code weekStart}
	 * (which only a week may set to another day than Monday).
	 */
	public static CalendarPeriod of(Unit unit, ZoneId zone, DayOfWeek weekStart) {
		if (unit != Unit.WEEK && weekStart != DEFAULT_WEEK_START) {
			throw new InvalidValueException(Window.Field.WEEK_START, "week-start ",
					"applies to a calendar week only, this calendar is " + unit.value());
		}
		return new CalendarPeriod(unit, zone, weekStart);
	}

	/**
	 * The period the configuration values name, each rejected with the
	 * {@link Window.Field} it sets.
	 * @param calendar {@code day}, {@code week}, {@code month} or {@code year}
	 * @param zone an IANA zone id (or an offset such as {@code +05:30}), {@code null} for
	 * UTC
	 * @param weekStart a day of the week ({@code monday}, ...), {@code null} for Monday
	 */
	public static CalendarPeriod parse(String calendar, String zone, String weekStart) {
		Unit unit = Unit.fromValue(calendar);
		ZoneId zoneId;
		try {
			zoneId = (zone == null) ? ZoneOffset.UTC : ZoneId.of(zone.trim());
		}
		catch (DateTimeException ex) {
			throw new InvalidValueException(Window.Field.ZONE, "zone ",
					"must be an IANA time-zone id such as Europe/Berlin, was '" + zone + "'");
		}
		DayOfWeek day = DEFAULT_WEEK_START;
		if (weekStart != null) {
			try {
				day = DayOfWeek.valueOf(weekStart.trim().toUpperCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidValueException(Window.Field.WEEK_START, "week-start ",
						"must be a day of the week (monday ... sunday), was '" + weekStart + "'");
			}
			if (unit != Unit.WEEK) {
				throw new InvalidValueException(Window.Field.WEEK_START, "week-start ",
						"applies to a calendar week only, this calendar is " + unit.value());
			}
		}
		return new CalendarPeriod(unit, zoneId, day);
	}

	public Unit unit() {
		return unit;
	}

	public ZoneId zone() {
		return zone;
	}

	/** The first day of a week; Monday for the other units. */
	public DayOfWeek weekStart() {
		return weekStart;
	}

	/** Start (inclusive) of the period that contains {@code nowMillis}, epoch ms. */
	public long startAt(long nowMillis) {
		return millis(firstDay(nowMillis));
	}

	/**
	 * End (exclusive) of the period that contains {@code nowMillis}: the next period's
	 * start, epoch ms.
	 */
	public long endAt(long nowMillis) {
		return millis(firstDay(nowMillis).plus(1, unit.chronoUnit));
	}

	/**
	 * The length of the period that ends at {@code endMillis} (a value {@link #endAt}
	 * returned).
	 */
	public long lengthEndingAt(long endMillis) {
		return endMillis - startAt(endMillis - 1);
	}

	/**
	 * The period's average length ({@link ChronoUnit#getDuration()}: a month is 30.436875
	 * days): what {@link Window#duration()} reports for a calendar window, whose periods
	 * vary.
	 */
	public Duration nominalLength() {
		return unit.chronoUnit.getDuration();
	}

	private LocalDate firstDay(long nowMillis) {
		LocalDate today = LocalDate.ofInstant(Instant.ofEpochMilli(nowMillis), zone);
		return switch (unit) {
			case DAY -> today;
			case WEEK -> today.with(TemporalAdjusters.previousOrSame(weekStart));
			case MONTH -> today.withDayOfMonth(1);
			case YEAR -> today.withDayOfYear(1);
		};
	}

	/**
	 * Local midnight of {@code day} in the zone (the first instant of that day where a
	 * daylight-saving gap skips midnight).
	 */
	private long millis(LocalDate day) {
		return day.atStartOfDay(zone).toInstant().toEpochMilli();
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof CalendarPeriod other && unit == other.unit && zone.equals(other.zone)
				&& weekStart == other.weekStart;
	}

	@Override
	public int hashCode() {
		return Objects.hash(unit, zone, weekStart);
	}

	/**
	 * {@code month@Europe/Berlin}, {@code week/sunday@UTC}: also what names the period's
	 * state in a store.
	 */
	@Override
	public String toString() {
		return unit.value() + ((unit == Unit.WEEK) ? "/" + weekStart.name().toLowerCase(Locale.ROOT) : "") + "@"
				+ zone.getId();
	}

	/**
	 * The length of a calendar window's periods: {@code limiter...windows.<w>.calendar}.
	 */
	public enum Unit {

		/** From local midnight to the next (23, 24 or 25 hours). */
		DAY(ChronoUnit.DAYS),

		/** From local midnight of the week's first day to the next week's. */
		WEEK(ChronoUnit.WEEKS),

		/** From local midnight of the 1st to the next month's 1st. */
		MONTH(ChronoUnit.MONTHS),

		/** From local midnight of 1 January to the next year's. */
		YEAR(ChronoUnit.YEARS);

		private final ChronoUnit chronoUnit;

		Unit(ChronoUnit chronoUnit) {
			this.chronoUnit = chronoUnit;
		}

		/** The configuration value, such as {@code month}. */
		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

		/**
		 * The unit a configuration value names (case-insensitive).
		 * @throws InvalidValueException naming {@link Window.Field#CALENDAR} when none
		 * matches
		 */
		public static Unit fromValue(String value) {
			for (Unit unit : values()) {
				if (value != null && unit.name().equalsIgnoreCase(value.trim())) {
					return unit;
				}
			}
			throw new InvalidValueException(Window.Field.CALENDAR, "calendar ",
					"must be one of day, week, month, year, was '" + value + "'");
		}

	}

}
