package dev.limiter.core;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Decision#admitted} against the decision {@link Decision#of} builds from the same
 * verdicts.
 */
class AdmittedDecisionTests {

	private static final long NOW = 1_700_000_000_123L;

	private final Window minute = Window.of("minute", 10, Duration.ofMinutes(1));

	private final Window hour = Window.of("hour", 100, Duration.ofHours(1));

	private final Budget twoWindows = Budget.builder("standard").window(minute).window(hour).build();

	private final Budget oneWindow = Budget.builder("single").window(minute).build();

	private final long minuteReset = minute.resetAt(NOW);

	private final long hourReset = hour.resetAt(NOW);

	@Test
	void admittedShouldEqualTheDecisionOfTheSameVerdicts() {
		Decision admitted = Decision.admitted(twoWindows, NOW, 4, minuteReset, 40, hourReset);
		Decision expected = Decision.of("standard", NOW, List.of(BoundVerdict.window(minute, 4, minuteReset, false),
				BoundVerdict.window(hour, 40, hourReset, false)), null);
		assertThat(admitted).isEqualTo(expected).hasSameHashCodeAs(expected).hasToString(expected.toString());
		assertThat(expected).isEqualTo(admitted);
		assertThat(admitted.verdicts()).isEqualTo(expected.verdicts())
			.hasSameHashCodeAs(expected.verdicts())
			.hasToString(expected.verdicts().toString());
		assertThat(expected.verdicts()).isEqualTo(admitted.verdicts());
		assertThat(admitted.allowed()).isTrue();
		assertThat(admitted.refusingBound()).isEmpty();
		assertThat(admitted.retryAfterMillis()).isZero();
		assertThat(admitted.lease()).isEmpty();
		assertThat(admitted.bindingWindow()).isEqualTo(expected.bindingWindow());
	}

	@Test
	void admittedWithOneWindowShouldHoldOneVerdict() {
		Decision admitted = Decision.admitted(oneWindow, NOW, 10, minuteReset, 0, 0);
		assertThat(admitted.verdicts()).containsExactly(BoundVerdict.window(minute, 10, minuteReset, false));
		assertThat(admitted.bindingWindow().remaining()).isZero();
		assertThat(admitted.anyWindowExhausted()).isTrue();
	}

	@Test
	void bindingWindowWhenAdmittedShouldBeTheFewestRemainingThenTheLastReset() {
		assertThat(Decision.admitted(twoWindows, NOW, 9, minuteReset, 40, hourReset).bindingWindow().name())
			.isEqualTo("minute");
		assertThat(Decision.admitted(twoWindows, NOW, 1, minuteReset, 95, hourReset).bindingWindow().name())
			.isEqualTo("hour");
		assertThat(Decision.admitted(twoWindows, NOW, 5, minuteReset, 95, hourReset).bindingWindow().name())
			.isEqualTo("hour");
		assertThat(Decision.admitted(twoWindows, NOW, 5, hourReset, 95, minuteReset).bindingWindow().name())
			.isEqualTo("minute");
	}

	@Test
	void anyWindowExhaustedWhenAdmittedShouldTellWhetherAWindowHasNothingLeft() {
		assertThat(Decision.admitted(twoWindows, NOW, 9, minuteReset, 99, hourReset).anyWindowExhausted()).isFalse();
		assertThat(Decision.admitted(twoWindows, NOW, 10, minuteReset, 40, hourReset).anyWindowExhausted()).isTrue();
		assertThat(Decision.admitted(twoWindows, NOW, 1, minuteReset, 100, hourReset).anyWindowExhausted()).isTrue();
	}

	@Test
	void admittedVerdictsWhenModifiedShouldRefuse() {
		List<BoundVerdict> verdicts = Decision.admitted(twoWindows, NOW, 4, minuteReset, 40, hourReset).verdicts();
		BoundVerdict first = verdicts.get(0);
		assertThatThrownBy(() -> verdicts.add(first)).isInstanceOf(UnsupportedOperationException.class);
		assertThatThrownBy(() -> verdicts.set(0, first)).isInstanceOf(UnsupportedOperationException.class);
		assertThatThrownBy(() -> verdicts.remove(0)).isInstanceOf(UnsupportedOperationException.class);
		assertThatThrownBy(() -> verdicts.removeIf((v) -> false)).isInstanceOf(UnsupportedOperationException.class);
		assertThatThrownBy(verdicts::clear).isInstanceOf(UnsupportedOperationException.class);
		assertThatThrownBy(() -> verdicts.listIterator().set(first)).isInstanceOf(UnsupportedOperationException.class);
		assertThat(verdicts).hasSize(2).containsExactly(first, verdicts.get(1));
	}

	@Test
	void admittedWhenACountExceedsItsLimitShouldBeRejected() {
		assertThatThrownBy(() -> Decision.admitted(twoWindows, NOW, 11, minuteReset, 40, hourReset))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("minute");
		assertThatThrownBy(() -> Decision.admitted(twoWindows, NOW, 1, minuteReset, -1, hourReset))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("hour");
	}

	@Test
	void admittedWhenTheBudgetHasThreeWindowsShouldBeRejected() {
		Budget three = Budget.builder("three")
			.window(minute)
			.window(hour)
			.window(Window.of("day", 1_000, Duration.ofDays(1)))
			.build();
		assertThatThrownBy(() -> Decision.admitted(three, NOW, 1, minuteReset, 1, hourReset))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("two windows");
	}

	@Test
	void ofWhenGivenAnAdmissionsVerdictsShouldBuildTheSameAdmission() {
		Decision admitted = Decision.admitted(twoWindows, NOW, 4, minuteReset, 40, hourReset);
		assertThat(Decision.of("standard", NOW, admitted.verdicts(), null)).isEqualTo(admitted);
	}

}
