package dev.limiter.core;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelValidationTests {

	@Test
	void windowWhenLimitIsNotPositiveShouldBeRejected() {
		assertThatThrownBy(() -> Window.of("minute", 0, Duration.ofMinutes(1)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("limit");
	}

	@Test
	void windowWhenDurationIsNotPositiveShouldBeRejected() {
		assertThatThrownBy(() -> Window.of("minute", 1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("duration");
	}

	@Test
	void windowWhenNameIsUnsafeOrReservedShouldBeRejected() {
		assertThatThrownBy(() -> Window.of("min ute", 1, Duration.ofMinutes(1))).hasMessageContaining("name");
		assertThatThrownBy(() -> Window.of(BoundNames.CONCURRENCY, 1, Duration.ofMinutes(1)))
			.hasMessageContaining("name");
	}

	@Test
	void concurrencyWhenMaxIsBelowOneShouldBeRejected() {
		assertThatThrownBy(() -> new ConcurrencyBound(0, Duration.ofSeconds(30))).hasMessageContaining("max");
	}

	@Test
	void budgetWhenWindowsAreMissingOrNamesRepeatShouldBeRejected() {
		assertThatThrownBy(() -> Budget.builder("b").build()).hasMessageContaining("at least one window");
		assertThatThrownBy(() -> Budget.builder("b")
			.window("m", 1, Duration.ofMinutes(1))
			.window("m", 2, Duration.ofMinutes(2))
			.build()).hasMessageContaining("twice");
		assertThatThrownBy(() -> Budget.builder("bad name")).hasMessageContaining("budget name");
	}

	@Test
	void budgetWhenBuiltShouldKeepWindowsInDeclarationOrderAndBeImmutable() {
		Budget budget = Budget.builder("b")
			.window("hour", 10, Duration.ofHours(1))
			.window("minute", 1, Duration.ofMinutes(1))
			.build();

		assertThat(budget.windows()).extracting(Window::name).containsExactly("hour", "minute");
		assertThatThrownBy(() -> budget.windows().add(Window.of("x", 1, Duration.ofSeconds(1))))
			.isInstanceOf(UnsupportedOperationException.class);
	}

	@Test
	void windowWhenStartedShouldBeAnchoredToTheEpoch() {
		Window minute = Window.of("minute", 1, Duration.ofMinutes(1));

		assertThat(minute.startAt(125_000)).isEqualTo(120_000);
		assertThat(minute.resetAt(125_000)).isEqualTo(180_000);
		assertThat(minute.resetAt(120_000)).isEqualTo(180_000);
	}

	@Test
	void decisionWhenRefusedShouldWaitTheLongestAndHoldNoLease() {
		BoundVerdict minute = BoundVerdict.window(Window.of("minute", 1, Duration.ofMinutes(1)), 1, 60_000, true);
		BoundVerdict hour = BoundVerdict.window(Window.of("hour", 1, Duration.ofHours(1)), 1, 3_600_000, true);

		Decision d = Decision.of("b", 1_000, List.of(minute, hour), null);

		assertThat(d.allowed()).isFalse();
		assertThat(d.refusingBound()).contains(hour);
		assertThat(d.retryAfterMillis()).isEqualTo(3_599_000);
		assertThat(d.asDegraded().degraded()).isTrue();
		assertThat(d.asUncounted().counted()).isFalse();
		assertThatThrownBy(() -> Decision.of("b", 1_000, List.of(minute), new Lease("b", "k", "1", 2_000)))
			.hasMessageContaining("lease");
	}

	@Test
	void windowVerdictWhenBuiltFromAWindowShouldTakeItsNameLimitAndLength() {
		BoundVerdict verdict = BoundVerdict.window(Window.of("minute", 5, Duration.ofMinutes(1)), 7, 60_000, true);

		assertThat(verdict.name()).isEqualTo("minute");
		assertThat(verdict.concurrency()).isFalse();
		assertThat(verdict.limit()).isEqualTo(5);
		assertThat(verdict.remaining()).as("never negative").isZero();
		assertThat(verdict.resetAtMillis()).isEqualTo(60_000);
		assertThat(verdict.periodMillis()).isEqualTo(60_000);
		assertThat(verdict.refused()).isTrue();
		assertThat(verdict.withRefused(false).refused()).isFalse();
		assertThat(verdict.withRefused(true)).isSameAs(verdict);
	}

	@Test
	void concurrencyVerdictWhenBuiltFromTheBoundShouldTakeItsMaxAndLeaseLength() {
		ConcurrencyBound bound = Budget.builder("b")
			.window("minute", 1, Duration.ofMinutes(1))
			.concurrency(3, Duration.ofSeconds(30))
			.build()
			.concurrency()
			.orElseThrow();

		BoundVerdict verdict = BoundVerdict.concurrency(bound, 1, 5_000, false);

		assertThat(verdict.name()).isEqualTo(BoundNames.CONCURRENCY);
		assertThat(verdict.concurrency()).isTrue();
		assertThat(verdict.limit()).isEqualTo(3);
		assertThat(verdict.remaining()).isEqualTo(2);
		assertThat(verdict.resetAtMillis()).isEqualTo(5_000);
		assertThat(verdict.periodMillis()).isEqualTo(30_000);
		assertThat(verdict.refused()).isFalse();
	}

}
