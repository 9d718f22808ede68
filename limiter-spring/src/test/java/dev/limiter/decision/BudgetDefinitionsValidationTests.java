package dev.limiter.decision;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import dev.limiter.spring.BudgetDefinition;
import dev.limiter.spring.BudgetRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A run-time definition's windows in a unit: validated as a configured window's unit is,
 * and built as a fixed window counting that unit; a calendar window in its zone; its
 * {@code notify-at} thresholds checked as the property is.
 */
class BudgetDefinitionsValidationTests {

	private static final BudgetRegistry CONFIGURED = new BudgetRegistry(
			List.of(Budget.builder("default").window("minute", 10, Duration.ofMinutes(1)).build()), "default",
			"default");

	@Test
	void validateWhenAWindowNamesAUnitShouldBuildAWindowCountingIt() {
		Budget budget = BudgetDefinitions.validate(BudgetDefinition.builder("plan")
			.window("minute", 60, Duration.ofMinutes(1))
			.window("tokens", 50, Duration.ofMinutes(1), "tokens")
			.build(), CONFIGURED);

		assertThat(budget.windows()).extracting(Window::unit).containsExactly(Window.REQUESTS, "tokens");
		assertThat(budget.hasUnits()).isTrue();
	}

	@Test
	void validateWhenAWindowHasACalendarShouldBuildACalendarWindowInItsZone() {
		CalendarPeriod month = CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Asia/Tokyo"));
		Budget budget = BudgetDefinitions.validate(BudgetDefinition.builder("pro")
			.window("minute", 600, Duration.ofMinutes(1))
			.window("month", 2_000_000, month, "tokens")
			.build(), CONFIGURED);

		Window window = budget.windows().get(1);
		assertThat(window.algorithm()).isEqualTo(WindowAlgorithm.CALENDAR);
		assertThat(window.calendar()).contains(month);
		assertThat(window.unit()).isEqualTo("tokens");
	}

	@Test
	void validateWhenWindowsHaveNotifyAtShouldBuildWindowsWithTheirThresholds() {
		CalendarPeriod month = CalendarPeriod.of(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin"));
		Budget budget = BudgetDefinitions.validate(BudgetDefinition.builder("pro")
			.window("minute", 600, Duration.ofMinutes(1))
			.notifyAt(90)
			.window("month", 200_000, month, "tokens")
			.notifyAt(100, 80, 80)
			.window("hour", 100, Duration.ofHours(1))
			.build(), CONFIGURED);

		assertThat(budget.windows().get(0).notifyAt()).contains(NotifyAt.of(List.of(90)));
		assertThat(budget.windows().get(1).notifyAt()).contains(NotifyAt.of(List.of(80, 100)));
		assertThat(budget.windows().get(2).notifyAt()).isEmpty();
		assertThat(budget.notifies()).isTrue();
	}

	@Test
	void validateWhenNotifyAtIsOutsideZeroToAHundredPercentShouldBeRejectedNamingTheWindow() {
		for (Integer[] percents : List.of(new Integer[] { 80, 120 }, new Integer[] { 0 }, new Integer[] { null })) {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> BudgetDefinitions.validate(BudgetDefinition.builder("plan")
					.window("month", 100, Duration.ofDays(30))
					.notifyAt(percents)
					.build(), CONFIGURED))
				.withMessageContaining("window 'month' notify-at must be whole percentages in (0%, 100%]");
		}
	}

	@Test
	void notifyAtWhenNoWindowWasAddedShouldFail() {
		assertThatIllegalStateException().isThrownBy(() -> BudgetDefinition.builder("plan").notifyAt(80))
			.withMessageContaining("add a window first");
	}

	@Test
	void validateWhenAWindowHasNeitherADurationNorACalendarShouldBeRejectedNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BudgetDefinitions
				.validate(BudgetDefinition.builder("plan").window("month", 5, (Duration) null).build(), CONFIGURED))
			.withMessageContaining("'month' needs a duration or a calendar");
	}

	@Test
	void validateWhenAUnitIsMalformedShouldBeRejectedNamingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> BudgetDefinitions.validate(
				BudgetDefinition.builder("plan").window("tokens", 50, Duration.ofMinutes(1), "Tokens!").build(),
				CONFIGURED))
			.withMessageContaining("Tokens!");
	}

}
