package dev.limiter.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.Window;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For random sequences of reservations and settlements (in any order, some reservations
 * never settled, some settled twice), what every window holds is the sum of the actual
 * amounts reported, and the estimate of each reservation nobody settled; for each
 * algorithm, while no instance ends (one fixed window, one sliding bucket, one instant
 * for the bucket).
 */
class ReserveSettlePropertyTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final long LIMIT = 1_000_000L;

	private static final List<Budget> BUDGETS = List.of(
			Budget.builder("fixed")
				.window("minute", LIMIT, Duration.ofMinutes(1))
				.window(Window.of("tokens", LIMIT, Duration.ofMinutes(1)).inUnit("tokens"))
				.build(),
			Budget.builder("sliding")
				.window(Window.sliding("tokens", LIMIT, Duration.ofMinutes(1)).inUnit("tokens"))
				.build(),
			Budget.builder("bucket")
				.window(Window.tokenBucket("tokens", LIMIT, Duration.ofSeconds(1_000)).inUnit("tokens"))
				.build());

	@Property(tries = 200)
	void countsWhenReservationsAndSettlementsInterleaveShouldEqualTheActualAmounts(@ForAll("steps") List<Step> steps,
			@ForAll("budgets") Budget budget) {
		RateLimitStore store = new InMemoryRateLimitStore(100);
		List<Reservation> open = new ArrayList<>();
		List<Long> expected = new ArrayList<>();
		long requests = 0;
		long now = T0 + 1_000;
		for (Step step : steps) {
			if (step.reserve() || open.isEmpty()) {
				long[] amounts = budget.amounts(1, Map.of("tokens", step.amount() + 1));
				Decision decision = store.reserve(budget, "k", amounts, false, now);
				assertThat(decision.allowed()).isTrue();
				open.add(Reservation.of(budget, "k", decision, amounts).orElseThrow());
				expected.add(step.amount() + 1);
				requests++;
			}
			else {
				int which = (int) (step.amount() % open.size());
				Reservation reservation = open.get(which);
				long actual = step.amount() * 3 % 250;
				boolean first = !reservation.settled();
				reservation.settle(step.report() ? Map.of("tokens", actual) : Map.of())
					.ifPresent((s) -> store.settle(s, T0 + 1_000));
				if (first && step.report()) {
					expected.set(which, actual);
				}
			}
		}
		long sum = expected.stream().mapToLong(Long::longValue).sum();
		long remaining = store.peek(budget, "k", now)
			.bounds()
			.stream()
			.filter((b) -> b.name().equals("tokens"))
			.findFirst()
			.orElseThrow()
			.remaining();

		assertThat(remaining).isEqualTo(LIMIT - sum);
		if (budget.windows().size() == 2) {
			assertThat(store.peek(budget, "k", now).bounds().get(0).remaining()).isEqualTo(LIMIT - requests);
		}
	}

	@Provide
	Arbitrary<Budget> budgets() {
		return Arbitraries.of(BUDGETS);
	}

	@Provide
	Arbitrary<List<Step>> steps() {
		Arbitrary<Step> step = Combinators
			.combine(Arbitraries.integers().between(0, 2).map((r) -> r == 0), Arbitraries.longs().between(0, 499),
					Arbitraries.integers().between(0, 3).map((r) -> r != 0))
			.as(Step::new);
		return step.list().ofMinSize(1).ofMaxSize(60);
	}

	/**
	 * A reservation of {@code amount + 1}, or a settlement (reported or not) of an open
	 * reservation chosen by {@code amount}.
	 */
	record Step(boolean reserve, long amount, boolean report) {
	}

}
