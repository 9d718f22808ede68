package dev.limiter.core;

import java.time.Duration;

import dev.limiter.core.guard.AuthGuardPolicy;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Every value a model type rejects is named by its field, and the message ends with the
 * reason: whoever supplied the value names it from the field alone, never from the text.
 */
class InvalidValueFieldTests {

	private static final Duration MINUTE = Duration.ofMinutes(1);

	@Test
	void windowWhenNameIsReservedShouldNameTheNameField() {
		assertRejected(() -> Window.of(BoundNames.CONCURRENCY, 1, MINUTE), Window.Field.NAME, "window name must match");
	}

	@Test
	void windowWhenLimitIsZeroShouldNameTheLimitField() {
		assertRejected(() -> Window.of("minute", 0, MINUTE), Window.Field.LIMIT, "must be at least 1, was 0");
	}

	@Test
	void windowWhenDurationIsZeroShouldNameTheDurationField() {
		assertRejected(() -> Window.of("minute", 1, Duration.ZERO), Window.Field.DURATION, "must be at least 1ms");
	}

	@Test
	void windowWhenUnitIsOutsideItsAlphabetShouldNameTheUnitField() {
		assertRejected(() -> Window.of("minute", 1, MINUTE).inUnit("Tokens"), Window.Field.UNIT,
				"must be 'requests' or 1 to 32 of a-z, 0-9 and '-', was 'Tokens'");
		assertRejected(() -> Window.of("minute", 1, MINUTE).inUnit("a".repeat(33)), Window.Field.UNIT, "1 to 32");
		assertRejected(() -> Window.of("minute", 1, MINUTE).inUnit(""), Window.Field.UNIT, "1 to 32");
	}

	@Test
	void concurrencyWhenMaxIsZeroShouldNameTheMaxField() {
		assertRejected(() -> new ConcurrencyBound(0, MINUTE), ConcurrencyBound.Field.MAX, "must be at least 1, was 0");
	}

	@Test
	void concurrencyWhenLeaseIsZeroShouldNameTheLeaseField() {
		assertRejected(() -> new ConcurrencyBound(1, Duration.ZERO), ConcurrencyBound.Field.LEASE,
				"must be at least 1ms");
	}

	@Test
	void budgetWhenNameIsUnsafeShouldNameTheNameField() {
		assertRejected(() -> Budget.builder("bad name"), Budget.Field.NAME, "budget name must match");
	}

	@Test
	void budgetWhenWindowsAreMissingOrRepeatedShouldNameTheWindowsField() {
		assertRejected(() -> Budget.builder("b").build(), Budget.Field.WINDOWS, "needs at least one window");
		assertRejected(() -> Budget.builder("b").window("m", 1, MINUTE).window("m", 2, MINUTE).build(),
				Budget.Field.WINDOWS, "declares window 'm' twice");
	}

	@Test
	void budgetWhenCostIsZeroOrAboveALimitShouldNameTheCostField() {
		Budget budget = Budget.builder("b").window("m", 5, MINUTE).build();
		assertRejected(() -> budget.checkCost(0), Budget.Field.COST, "must be at least 1, was 0");
		assertRejected(() -> budget.checkCost(6), Budget.Field.COST, "exceeds the limit 5");
	}

	@Test
	void budgetWhenAnEstimateCannotBeAdmittedOrCountsNothingShouldNameTheEstimateField() {
		Budget budget = Budget.builder("b")
			.window("m", 5, MINUTE)
			.window(Window.of("tokens", 100, MINUTE).inUnit("tokens"))
			.window(Window.tokenBucket("burst", 60, MINUTE, 50).inUnit("tokens"))
			.build();
		BudgetEstimates.check(budget, "tokens", 50);
		assertRejected(() -> BudgetEstimates.check(budget, "tokens", 51), Budget.Field.ESTIMATE,
				"exceeds the burst 50 of window 'burst' of budget 'b'");
		assertRejected(() -> BudgetEstimates.check(budget, "rows", 1), Budget.Field.ESTIMATE,
				"names a unit that no window of budget 'b' counts (its windows count [requests, tokens])");
		assertRejected(() -> BudgetEstimates.check(budget, "requests", 1), Budget.Field.ESTIMATE,
				"takes one per request");
	}

	@Test
	void guardPolicyWhenEachValueIsOutOfRangeShouldNameItsField() {
		Duration lease = AuthGuardPolicy.DEFAULT_LOOKUP_LEASE;
		assertRejected(() -> new AuthGuardPolicy(0, MINUTE, MINUTE, 1, lease), AuthGuardPolicy.Field.THRESHOLD,
				"must be at least 1, was 0");
		assertRejected(() -> new AuthGuardPolicy(1, Duration.ZERO, MINUTE, 1, lease), AuthGuardPolicy.Field.WINDOW,
				"must be at least 1ms");
		assertRejected(() -> new AuthGuardPolicy(1, MINUTE, Duration.ZERO, 1, lease), AuthGuardPolicy.Field.BLOCK,
				"must be at least 1ms");
		assertRejected(() -> new AuthGuardPolicy(1, MINUTE, MINUTE, 0, lease), AuthGuardPolicy.Field.MAX_PENDING,
				"must be at least 1, was 0");
		assertRejected(() -> new AuthGuardPolicy(1, MINUTE, MINUTE, 1, Duration.ZERO),
				AuthGuardPolicy.Field.LOOKUP_LEASE, "must be at least 1ms");
		assertRejected(() -> new AuthGuardPolicy(1, MINUTE, MINUTE, 1, lease, Duration.ofSeconds(-1)),
				AuthGuardPolicy.Field.REMEMBER_AUTHENTICATED, "must not be negative");
	}

	@Test
	void exceptionWhenBuiltShouldBeAnIllegalArgumentWhoseMessageEndsWithTheReason() {
		InvalidValueException ex = new InvalidValueException(Window.Field.LIMIT, "window 'm': limit ", "is wrong");
		assertThat(ex).isInstanceOf(IllegalArgumentException.class).hasMessage("window 'm': limit is wrong");
		assertThat(ex.field()).isEqualTo(Window.Field.LIMIT);
		assertThat(ex.reason()).isEqualTo("is wrong");
	}

	private static void assertRejected(ThrowingCallable call, Enum<?> field, String reasonPart) {
		InvalidValueException ex = catchThrowableOfType(InvalidValueException.class, call);
		assertThat(ex).as("rejected").isNotNull();
		assertThat(ex.field()).isEqualTo(field);
		assertThat(ex.reason()).contains(reasonPart);
		assertThat(ex.getMessage()).endsWith(ex.reason());
	}

}
