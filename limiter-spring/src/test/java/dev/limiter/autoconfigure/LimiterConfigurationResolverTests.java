package dev.limiter.autoconfigure;

import java.time.DayOfWeek;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Each invalid value names its own property: the properties are bound as Spring Boot
 * binds them, resolved, and the error's property compared, one case per validated
 * property. The property comes from the field the core type names, never from its
 * message.
 */
class LimiterConfigurationResolverTests {

	static Stream<Arguments> invalidValues() {
		return Stream.of(
				// a window's limit and duration (the core Window)
				invalid("limiter.budgets.standard.windows.minute.limit",
						"limiter.budgets.standard.windows.minute.limit=0"),
				invalid("limiter.budgets.anonymous.windows.hour.limit",
						"limiter.budgets.anonymous.windows.hour.limit=-1"),
				invalid("limiter.budgets.standard.windows.minute.duration",
						"limiter.budgets.standard.windows.minute.duration=0s"),
				invalid("limiter.budgets.standard.windows.minute.duration",
						"limiter.budgets.standard.windows.minute.duration=1500ms"),
				invalid("limiter.budgets.premium.windows.day.duration", "limiter.budgets.premium.windows.day.limit=10"),
				invalid("limiter.budgets.premium.windows.day.limit", "limiter.budgets.premium.windows.day.duration=1d"),
				// a calendar window: calendar or duration, its zone and week start
				invalid("limiter.budgets.standard.windows.month.calendar",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.calendar=month",
						"limiter.budgets.standard.windows.month.duration=30d"),
				invalid("limiter.budgets.standard.windows.month.calendar",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.calendar=fortnight"),
				invalid("limiter.budgets.standard.windows.month.calendar",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.algorithm=calendar"),
				invalid("limiter.budgets.standard.windows.month.zone",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.calendar=month",
						"limiter.budgets.standard.windows.month.zone=Europe/Berlim"),
				invalid("limiter.budgets.standard.windows.month.week-start",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.calendar=month",
						"limiter.budgets.standard.windows.month.week-start=sunday"),
				invalid("limiter.budgets.standard.windows.week.week-start",
						"limiter.budgets.standard.windows.week.limit=10",
						"limiter.budgets.standard.windows.week.calendar=week",
						"limiter.budgets.standard.windows.week.week-start=funday"),
				invalid("limiter.budgets.standard.windows.month.algorithm",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.calendar=month",
						"limiter.budgets.standard.windows.month.algorithm=token-bucket"),
				invalid("limiter.budgets.standard.windows.month.notify-at",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.calendar=month",
						"limiter.budgets.standard.windows.month.notify-at[0]=0%"),
				invalid("limiter.budgets.standard.windows.month.notify-at",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.calendar=month",
						"limiter.budgets.standard.windows.month.notify-at[0]=80%",
						"limiter.budgets.standard.windows.month.notify-at[1]=101%"),
				invalid("limiter.budgets.standard.windows.month.notify-at",
						"limiter.budgets.standard.windows.month.limit=10",
						"limiter.budgets.standard.windows.month.calendar=month",
						"limiter.budgets.standard.windows.month.notify-at[0]=most"),
				invalid("limiter.budgets.standard.windows.minute.notify-at",
						"limiter.budgets.standard.windows.minute.notify-at[0]=80%"),
				invalid("limiter.budgets.standard.windows.minute.zone",
						"limiter.budgets.standard.windows.minute.zone=Europe/Berlin"),
				// a window's name (its key)
				invalid("limiter.budgets.standard.windows.concurrency",
						"limiter.budgets.standard.windows.concurrency.limit=1",
						"limiter.budgets.standard.windows.concurrency.duration=1m"),
				// a budget's name (its key) and its windows (the core Budget)
				invalid("limiter.budgets.a b", "limiter.budgets[a b].windows.minute.limit=1",
						"limiter.budgets[a b].windows.minute.duration=1m"),
				invalid("limiter.budgets.premium.windows", "limiter.budgets.premium.count-refused=true"),
				// the concurrency bound (the core ConcurrencyBound)
				invalid("limiter.budgets.standard.concurrency.max", "limiter.budgets.standard.concurrency.max=0"),
				invalid("limiter.budgets.standard.concurrency.lease", "limiter.budgets.standard.concurrency.lease=0s"),
				invalid("limiter.budgets.premium.concurrency.max", "limiter.budgets.premium.windows.m.limit=1",
						"limiter.budgets.premium.windows.m.duration=1m",
						"limiter.budgets.premium.concurrency.lease=1s"),
				// leased quota slices (the core SliceTerms)
				invalid("limiter.budgets.standard.slices.max", "limiter.budgets.standard.slices.enabled=true",
						"limiter.budgets.standard.slices.max=0"),
				invalid("limiter.budgets.standard.slices.ttl", "limiter.budgets.standard.slices.enabled=true",
						"limiter.budgets.standard.slices.ttl=0s"),
				// the guard (the core AuthGuardPolicy)
				invalid("limiter.auth-guard.threshold", "limiter.auth-guard.threshold=0"),
				invalid("limiter.auth-guard.window", "limiter.auth-guard.window=0s"),
				invalid("limiter.auth-guard.block", "limiter.auth-guard.block=0s"),
				invalid("limiter.auth-guard.max-pending", "limiter.auth-guard.max-pending=0"),
				invalid("limiter.auth-guard.remember-authenticated", "limiter.auth-guard.remember-authenticated=-1s"),
				// what the resolver checks itself
				invalid("limiter.memory.max-keys", "limiter.memory.max-keys=0"),
				invalid("limiter.fallback.max-keys", "limiter.fallback.max-keys=0"),
				invalid("limiter.redis.timeout", "limiter.redis.timeout=0s"),
				invalid("limiter.redis.key-prefix", "limiter.redis.key-prefix="),
				invalid("limiter.default-budget", "limiter.default-budget=gold"),
				invalid("limiter.anonymous-budget", "limiter.anonymous-budget=guest"),
				invalid("limiter.max-request-body", "limiter.max-request-body=-1B"),
				invalid("limiter.routes[0].pattern", "limiter.routes[0].budget=standard"),
				invalid("limiter.routes[0].pattern", "limiter.routes[0].pattern=/a/{id"),
				invalid("limiter.routes[1].budget", "limiter.routes[0].pattern=/a", "limiter.routes[1].pattern=/b",
						"limiter.routes[1].budget=gold"),
				invalid("limiter.routes[0].reason", "limiter.routes[0].pattern=/x", "limiter.routes[0].exempt=true"),
				invalid("limiter.routes[0].methods[1]", "limiter.routes[0].pattern=/x",
						"limiter.routes[0].methods[0]=GET", "limiter.routes[0].methods[1]=G3T"),
				invalid("limiter.gateway.report-header", "limiter.gateway.report-header=X Usage"),
				invalid("limiter.gateway.report-header", "limiter.gateway.report-header=X-Usage:"),
				invalid("limiter.gateway.report-header", "limiter.gateway.report-header=x-ratelimit-remaining"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidValues")
	void resolveWhenAValueIsInvalidShouldNameItsProperty(String property, List<String> values) {
		InvalidLimiterConfigurationException ex = rejected(() -> LimiterConfigurationResolver.resolve(bind(values)));
		assertThat(ex.getProperty()).isEqualTo(property);
		assertThat(ex.getMessage()).contains("'" + property + "'");
	}

	@Test
	void resolveWhenACoreTypeRejectsAValueShouldGiveTheReasonWithoutRepeatingTheField() {
		assertThat(rejected(() -> LimiterConfigurationResolver
			.resolve(bind(List.of("limiter.budgets.standard.windows.minute.limit=0")))).getReason())
			.isEqualTo("must be at least 1, was 0");
		assertThat(rejected(
				() -> LimiterConfigurationResolver.resolve(bind(List.of("limiter.budgets.standard.concurrency.max=0"))))
			.getReason()).isEqualTo("must be at least 1, was 0");
	}

	@Test
	void resolveWhenAWindowHasACalendarShouldBuildACalendarWindowInItsZone() {
		LimiterSettings settings = LimiterConfigurationResolver
			.resolve(bind(List.of("limiter.budgets.standard.windows.month.limit=200000",
					"limiter.budgets.standard.windows.month.calendar=Month",
					"limiter.budgets.standard.windows.month.zone=Europe/Berlin",
					"limiter.budgets.standard.windows.month.unit=tokens",
					"limiter.budgets.standard.windows.month.notify-at=80%, 100 %",
					"limiter.budgets.standard.windows.week.limit=100",
					"limiter.budgets.standard.windows.week.calendar=week",
					"limiter.budgets.standard.windows.week.week-start=sunday")));

		Map<String, Window> windows = new LinkedHashMap<>();
		settings.budgets().get("standard").windows().forEach((w) -> windows.put(w.name(), w));
		assertThat(windows.get("month").algorithm()).isEqualTo(WindowAlgorithm.CALENDAR);
		assertThat(windows.get("month").unit()).isEqualTo("tokens");
		assertThat(windows.get("month").calendar())
			.contains(CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin")));
		assertThat(windows.get("month").notifyAt()).contains(NotifyAt.of(List.of(80, 100)));
		assertThat(windows.get("week").calendar())
			.contains(CalendarPeriod.of(CalendarPeriod.Unit.WEEK, ZoneOffset.UTC, DayOfWeek.SUNDAY));
	}

	@Test
	void resolveWhenSlicesAreEnabledWithoutAMaxShouldTakeOnePercentOfTheSmallestLimit() {
		LimiterSettings settings = LimiterConfigurationResolver
			.resolve(bind(List.of("limiter.budgets.standard.slices.enabled=true")));

		assertThat(settings.budgets().get("standard").slices()).contains(new SliceTerms(6, SliceTerms.DEFAULT_TTL));
		assertThat(settings.budgets().get("anonymous").slices()).isEmpty();
	}

	@Test
	void resolveWhenSlicesAreNotEnabledShouldLeaveTheBudgetUnsliced() {
		LimiterSettings settings = LimiterConfigurationResolver
			.resolve(bind(List.of("limiter.budgets.standard.slices.max=50")));

		assertThat(settings.budgets().get("standard").slices()).isEmpty();
	}

	@Test
	void resolveWhenTheReportHeaderIsSetShouldKeepItsName() {
		assertThat(LimiterConfigurationResolver.resolve(bind(List.of("limiter.gateway.report-header=X-Usage-Tokens")))
			.gatewayReportHeader()).hasValue("X-Usage-Tokens");
	}

	@Test
	void resolveWhenTheReportHeaderIsUnsetShouldHaveNone() {
		assertThat(LimiterConfigurationResolver.resolve(bind(List.of())).gatewayReportHeader()).isEmpty();
	}

	private static Arguments invalid(String property, String... values) {
		return Arguments.of(property, Arrays.asList(values));
	}

	private static LimiterProperties bind(List<String> values) {
		Map<String, String> map = new LinkedHashMap<>();
		for (String value : values) {
			int equals = value.indexOf('=');
			map.put(value.substring(0, equals), value.substring(equals + 1));
		}
		return new Binder(new MapConfigurationPropertySource(map)).bindOrCreate("limiter", LimiterProperties.class);
	}

	private static InvalidLimiterConfigurationException rejected(ThrowingCallable call) {
		InvalidLimiterConfigurationException ex = catchThrowableOfType(InvalidLimiterConfigurationException.class,
				call);
		assertThat(ex).as("rejected").isNotNull();
		return ex;
	}

}
