package dev.limiter.core;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A calendar period runs from local midnight of its first day to local midnight of the
 * next period's first day: month lengths, leap years, both daylight-saving changes in a
 * European and an American zone, a zone east of UTC+12, week starts, and the last
 * millisecond of a period against the first of the next.
 */
class CalendarPeriodTests {

	private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

	private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

	private static final ZoneId KIRITIMATI = ZoneId.of("Pacific/Kiritimati");

	private static long at(String instant) {
		return Instant.parse(instant).toEpochMilli();
	}

	@ParameterizedTest
	@CsvSource({ "2023-02-14T12:00:00Z, 2023-01-31T23:00:00Z, 2023-02-28T23:00:00Z, 28",
			"2024-02-14T12:00:00Z, 2024-01-31T23:00:00Z, 2024-02-29T23:00:00Z, 29",
			"2100-02-14T12:00:00Z, 2100-01-31T23:00:00Z, 2100-02-28T23:00:00Z, 28",
			"2000-02-14T12:00:00Z, 2000-01-31T23:00:00Z, 2000-02-29T23:00:00Z, 29",
			"2024-04-14T12:00:00Z, 2024-03-31T22:00:00Z, 2024-04-30T22:00:00Z, 30",
			"2024-01-14T12:00:00Z, 2023-12-31T23:00:00Z, 2024-01-31T23:00:00Z, 31" })
	void monthWhenInBerlinShouldRunFromTheFirstToTheFirstOfAnyLength(String now, String start, String end, int days) {
		CalendarPeriod month = CalendarPeriod.of(CalendarPeriod.Unit.MONTH, BERLIN);

		assertThat(month.startAt(at(now))).isEqualTo(at(start));
		assertThat(month.endAt(at(now))).isEqualTo(at(end));
		assertThat(month.lengthEndingAt(at(end))).isEqualTo(Duration.ofDays(days).toMillis());
	}

	@Test
	void monthWhenItHoldsASpringOrAutumnChangeInBerlinShouldBeAnHourShorterOrLonger() {
		CalendarPeriod month = CalendarPeriod.of(CalendarPeriod.Unit.MONTH, BERLIN);

		long march = month.endAt(at("2024-03-15T00:00:00Z"));
		long october = month.endAt(at("2024-10-15T00:00:00Z"));

		assertThat(march).isEqualTo(at("2024-03-31T22:00:00Z"));
		assertThat(month.lengthEndingAt(march)).isEqualTo(Duration.ofDays(31).minusHours(1).toMillis());
		assertThat(october).isEqualTo(at("2024-10-31T23:00:00Z"));
		assertThat(month.lengthEndingAt(october)).isEqualTo(Duration.ofDays(31).plusHours(1).toMillis());
	}

	@ParameterizedTest
	@CsvSource({ "Europe/Berlin, 2024-03-31T12:00:00Z, 2024-03-30T23:00:00Z, 2024-03-31T22:00:00Z, 23",
			"Europe/Berlin, 2024-10-27T12:00:00Z, 2024-10-26T22:00:00Z, 2024-10-27T23:00:00Z, 25",
			"America/New_York, 2024-03-10T12:00:00Z, 2024-03-10T05:00:00Z, 2024-03-11T04:00:00Z, 23",
			"America/New_York, 2024-11-03T12:00:00Z, 2024-11-03T04:00:00Z, 2024-11-04T05:00:00Z, 25",
			"America/New_York, 2024-07-04T12:00:00Z, 2024-07-04T04:00:00Z, 2024-07-05T04:00:00Z, 24" })
	void dayWhenTheClocksChangeShouldLastTwentyThreeOrTwentyFiveHours(String zone, String now, String start, String end,
			int hours) {
		CalendarPeriod day = CalendarPeriod.of(CalendarPeriod.Unit.DAY, ZoneId.of(zone));

		assertThat(day.startAt(at(now))).isEqualTo(at(start));
		assertThat(day.endAt(at(now))).isEqualTo(at(end));
		assertThat(day.lengthEndingAt(at(end))).isEqualTo(Duration.ofHours(hours).toMillis());
	}

	@Test
	void weekWhenItHoldsTheSpringChangeInNewYorkShouldBeAnHourShorter() {
		CalendarPeriod week = CalendarPeriod.of(CalendarPeriod.Unit.WEEK, NEW_YORK, DayOfWeek.SUNDAY);

		long end = week.endAt(at("2024-03-12T12:00:00Z"));

		assertThat(week.startAt(at("2024-03-12T12:00:00Z"))).isEqualTo(at("2024-03-10T05:00:00Z"));
		assertThat(end).isEqualTo(at("2024-03-17T04:00:00Z"));
		assertThat(week.lengthEndingAt(end)).isEqualTo(Duration.ofDays(7).minusHours(1).toMillis());
	}

	@Test
	void periodWhenInAZoneEastOfUtcPlusTwelveShouldStartTheNewYearTheUtcEveningBefore() {
		CalendarPeriod year = CalendarPeriod.of(CalendarPeriod.Unit.YEAR, KIRITIMATI);
		CalendarPeriod month = CalendarPeriod.of(CalendarPeriod.Unit.MONTH, KIRITIMATI);
		long newYear = at("2023-12-31T10:00:00Z");

		assertThat(year.endAt(newYear - 1)).isEqualTo(newYear);
		assertThat(year.startAt(newYear)).isEqualTo(newYear);
		assertThat(year.endAt(newYear)).isEqualTo(at("2024-12-31T10:00:00Z"));
		assertThat(year.lengthEndingAt(at("2024-12-31T10:00:00Z"))).isEqualTo(Duration.ofDays(366).toMillis());
		assertThat(month.endAt(newYear)).isEqualTo(at("2024-01-31T10:00:00Z"));
	}

	@ParameterizedTest
	@CsvSource({ "MONDAY, 2024-03-04T00:00:00Z", "SUNDAY, 2024-03-03T00:00:00Z", "WEDNESDAY, 2024-03-06T00:00:00Z",
			"THURSDAY, 2024-02-29T00:00:00Z", "SATURDAY, 2024-03-02T00:00:00Z" })
	void weekWhenItStartsOnAGivenDayShouldStartOnTheLatestSuchDayNotAfterToday(DayOfWeek weekStart, String start) {
		CalendarPeriod week = CalendarPeriod.of(CalendarPeriod.Unit.WEEK, ZoneId.of("UTC"), weekStart);
		long wednesdayNoon = at("2024-03-06T12:00:00Z");

		assertThat(week.startAt(wednesdayNoon)).isEqualTo(at(start));
		assertThat(week.endAt(wednesdayNoon)).isEqualTo(at(start) + Duration.ofDays(7).toMillis());
	}

	@Test
	void periodWhenAtItsLastMillisecondOrTheNextsFirstShouldNameTheOneItIsIn() {
		CalendarPeriod month = CalendarPeriod.of(CalendarPeriod.Unit.MONTH, BERLIN);
		long end = at("2024-02-29T23:00:00Z");

		assertThat(month.endAt(end - 1_000)).isEqualTo(end);
		assertThat(month.endAt(end - 1)).isEqualTo(end);
		assertThat(month.startAt(end)).isEqualTo(end);
		assertThat(month.endAt(end)).isEqualTo(at("2024-03-31T22:00:00Z"));
	}

	@Property(tries = 400)
	void periodWhenAtAnyInstantInAnyZoneShouldContainItAndStartAtLocalMidnightOfItsFirstDay(
			@ForAll("instants") long now, @ForAll("zones") ZoneId zone, @ForAll CalendarPeriod.Unit unit,
			@ForAll DayOfWeek weekStart) {
		CalendarPeriod period = CalendarPeriod.of(unit, zone,
				(unit == CalendarPeriod.Unit.WEEK) ? weekStart : DayOfWeek.MONDAY);

		long start = period.startAt(now);
		long end = period.endAt(now);
		ZonedDateTime localStart = Instant.ofEpochMilli(start).atZone(zone);

		assertThat(start).isLessThanOrEqualTo(now);
		assertThat(end).isGreaterThan(now);
		assertThat(period.startAt(end)).isEqualTo(end);
		assertThat(period.endAt(end - 1)).isEqualTo(end);
		assertThat(period.lengthEndingAt(end)).isEqualTo(end - start);
		assertThat(localStart.toLocalTime()).isEqualTo(localStart.toLocalDate().atStartOfDay(zone).toLocalTime());
		assertThat(localStart.toLocalTime().isBefore(LocalTime.of(2, 0))).isTrue();
		switch (unit) {
			case DAY ->
				assertThat(localStart.toLocalDate()).isEqualTo(Instant.ofEpochMilli(now).atZone(zone).toLocalDate());
			case WEEK -> assertThat(localStart.getDayOfWeek()).isEqualTo(weekStart);
			case MONTH -> assertThat(localStart.getDayOfMonth()).isEqualTo(1);
			case YEAR -> assertThat(localStart.getDayOfYear()).isEqualTo(1);
		}
	}

	@Provide
	Arbitrary<Long> instants() {
		return Arbitraries.longs().between(at("1990-01-01T00:00:00Z"), at("2100-01-01T00:00:00Z"));
	}

	@Provide
	Arbitrary<ZoneId> zones() {
		return Arbitraries
			.of("UTC", "Europe/Berlin", "America/New_York", "Pacific/Kiritimati", "Asia/Kolkata", "Australia/Lord_Howe",
					"America/Havana", "Pacific/Chatham", "America/St_Johns")
			.map(ZoneId::of);
	}

	@Test
	void parseWhenValuesAreWrongShouldNameTheField() {
		assertThatExceptionOfType(InvalidValueException.class)
			.isThrownBy(() -> CalendarPeriod.parse("fortnight", null, null))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo(Window.Field.CALENDAR))
			.withMessageContaining("day, week, month, year");
		assertThatExceptionOfType(InvalidValueException.class)
			.isThrownBy(() -> CalendarPeriod.parse("month", "Europe/Berlim", null))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo(Window.Field.ZONE))
			.withMessageContaining("Europe/Berlim");
		assertThatExceptionOfType(InvalidValueException.class)
			.isThrownBy(() -> CalendarPeriod.parse("week", null, "funday"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo(Window.Field.WEEK_START));
		assertThatExceptionOfType(InvalidValueException.class)
			.isThrownBy(() -> CalendarPeriod.parse("month", null, "sunday"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo(Window.Field.WEEK_START))
			.withMessageContaining("calendar week only");
	}

	@Test
	void parseWhenValuesAreRightShouldDefaultToUtcAndMonday() {
		CalendarPeriod period = CalendarPeriod.parse(" Week ", null, null);

		assertThat(period.unit()).isEqualTo(CalendarPeriod.Unit.WEEK);
		assertThat(period.zone()).isEqualTo(ZoneId.of("Z"));
		assertThat(period.weekStart()).isEqualTo(DayOfWeek.MONDAY);
		assertThat(CalendarPeriod.parse("week", "America/New_York", "sunday"))
			.isEqualTo(CalendarPeriod.of(CalendarPeriod.Unit.WEEK, NEW_YORK, DayOfWeek.SUNDAY));
		assertThat(CalendarPeriod.parse("month", "Europe/Berlin", null)).hasToString("month@Europe/Berlin");
	}

}
