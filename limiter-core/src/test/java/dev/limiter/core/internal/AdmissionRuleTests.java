package dev.limiter.core.internal;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Decision;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every algorithm's lazy admission ({@link WindowArithmetic#countAdmitted} and its
 * {@link AdmissionRule}) against the eager rule ({@link WindowArithmetic#count}) on
 * random histories of two windows of any algorithms: two copies of one state go through
 * the same takes, refusals, settlements and clocks (also going back), one counted the
 * eager way and one the lazy way; at every admission the rule's verdict equals the eager
 * one field for field (remaining, reset, retry: the headers), its {@code exhausted} is
 * the eager verdict's {@code remaining == 0}, the decision equals the one
 * {@link Decision#of} builds from the eager verdicts (binding window, retry-after), and
 * the two states stay equal.
 */
class AdmissionRuleTests {

	private static final long BASE = 1_699_999_200_000L;

	@Property(tries = 400)
	void admissionWhenVerdictsAreMadeLazilyShouldAnswerWhatTheEagerRuleAnswers(@ForAll("windows") Window first,
			@ForAll("windows") Window second, @ForAll("histories") List<Step> steps) {
		Window renamed = rename(second, "second");
		Budget budget = Budget.builder("b").window(first).window(renamed).build();
		List<Window> windows = budget.windows();
		CounterState eager = new CounterState(2);
		CounterState lazy = new CounterState(2);
		long now = BASE;
		for (Step step : steps) {
			now += step.advanceMillis();
			if (step.settles()) {
				int i = step.window();
				Window w = windows.get(i);
				// The instance a reservation at this moment would have been taken in.
				long instance = (w.algorithm() == WindowAlgorithm.SLIDING_WINDOW)
						? Math.floorDiv(now, w.resolutionMillis()) : eager.reset(i);
				long delta = SettlementBounds.clampDelta(w, step.delta());
				WindowArithmetic.of(w).settle(w, eager, i, instance, delta, now);
				WindowArithmetic.of(w).settle(w, lazy, i, instance, delta, now);
				assertSame(eager, lazy);
				continue;
			}
			long[] costs = { Math.min(step.cost(), capacity(windows.get(0))),
					Math.min(step.cost(), capacity(windows.get(1))) };
			WindowArithmetic.Reading[] eagerReadings = new WindowArithmetic.Reading[2];
			WindowArithmetic.Reading[] lazyReadings = new WindowArithmetic.Reading[2];
			boolean room = true;
			for (int i = 0; i < 2; i++) {
				Window w = windows.get(i);
				eagerReadings[i] = WindowArithmetic.of(w).read(w, eager, i, costs[i], false, now);
				lazyReadings[i] = WindowArithmetic.of(w).read(w, lazy, i, costs[i], false, now);
				assertThat(lazyReadings[i]).isEqualTo(eagerReadings[i]);
				room &= eagerReadings[i].room();
			}
			if (!room) {
				// A refusal is answered eagerly on both paths; it may still count.
				for (int i = 0; i < 2; i++) {
					Window w = windows.get(i);
					WindowArithmetic.of(w).count(w, eager, i, eagerReadings[i], costs[i], step.refusalCounts(), now);
					WindowArithmetic.of(w).count(w, lazy, i, lazyReadings[i], costs[i], step.refusalCounts(), now);
				}
				assertSame(eager, lazy);
				continue;
			}
			BoundVerdict[] expected = new BoundVerdict[2];
			long[] extras = new long[2];
			for (int i = 0; i < 2; i++) {
				Window w = windows.get(i);
				expected[i] = WindowArithmetic.of(w).count(w, eager, i, eagerReadings[i], costs[i], true, now);
				extras[i] = WindowArithmetic.of(w).countAdmitted(w, lazy, i, lazyReadings[i], costs[i], now);
			}
			assertSame(eager, lazy);
			for (int i = 0; i < 2; i++) {
				Window w = windows.get(i);
				AdmissionRule rule = WindowArithmetic.of(w).admissionRule();
				long counted = lazyReadings[i].before() + costs[i];
				assertThat(rule.verdict(w, counted, lazy.reset(i), extras[i], now)).as("window %d at %d", i, now)
					.isEqualTo(expected[i]);
				assertThat(rule.exhausted(w, counted, lazy.reset(i), extras[i], now)).as("window %d at %d", i, now)
					.isEqualTo(expected[i].remaining() == 0);
			}
			Decision admitted = Decision.admitted(budget, now, WindowArithmetic.of(windows.get(0)).admissionRule(),
					lazyReadings[0].before() + costs[0], lazy.reset(0), extras[0],
					WindowArithmetic.of(windows.get(1)).admissionRule(), lazyReadings[1].before() + costs[1],
					lazy.reset(1), extras[1]);
			Decision of = Decision.of("b", now, List.of(expected), null);
			assertThat(admitted.allowed()).isTrue();
			assertThat(admitted.bindingWindow()).isEqualTo(of.bindingWindow());
			assertThat(admitted.retryAfterSeconds()).isEqualTo(of.retryAfterSeconds());
			assertThat(admitted).isEqualTo(of);
		}
	}

	private static void assertSame(CounterState eager, CounterState lazy) {
		for (int i = 0; i < 2; i++) {
			assertThat(lazy.reset(i)).as("reset %d", i).isEqualTo(eager.reset(i));
			assertThat(lazy.count(i)).as("count %d", i).isEqualTo(eager.count(i));
			assertThat(lazy.slide(i)).as("buckets %d", i).isEqualTo(eager.slide(i));
		}
	}

	/** The most one request may cost in {@code w}. */
	private static long capacity(Window w) {
		return (w.algorithm() == WindowAlgorithm.TOKEN_BUCKET) ? w.burst() : w.limit();
	}

	private static Window rename(Window w, String name) {
		if (w.algorithm() == WindowAlgorithm.CALENDAR) {
			return Window.calendar(name, w.limit(), CalendarPeriod.of(CalendarPeriod.Unit.DAY, ZoneOffset.UTC));
		}
		Long burst = (w.algorithm() == WindowAlgorithm.TOKEN_BUCKET) ? w.burst() : null;
		Duration resolution = (w.algorithm() == WindowAlgorithm.SLIDING_WINDOW)
				? Duration.ofMillis(w.resolutionMillis()) : null;
		return new Window(name, w.limit(), Duration.ofMillis(w.durationMillis()), w.algorithm(), burst, resolution);
	}

	@Provide
	Arbitrary<Window> windows() {
		Arbitrary<Long> limits = Arbitraries.longs().between(1, 12);
		Arbitrary<Long> durations = Arbitraries.of(1_000L, 3_000L, 10_000L, 7_300L);
		Arbitrary<Long> extras = Arbitraries.longs().between(0, 20);
		Arbitrary<WindowAlgorithm> algorithms = Arbitraries.of(WindowAlgorithm.values());
		return Combinators.combine(algorithms, limits, durations, extras).as((algorithm, limit, duration, extra) -> {
			switch (algorithm) {
				case TOKEN_BUCKET:
					return new Window("first", limit, Duration.ofMillis(duration), algorithm,
							(extra == 0) ? null : Long.valueOf(extra), null);
				case SLIDING_WINDOW:
					// A resolution that divides the duration, or one that does not.
					long resolution = (extra % 3 == 0) ? duration / 10 : 300 + extra;
					return new Window("first", limit, Duration.ofMillis(duration), algorithm, null,
							Duration.ofMillis(resolution));
				case CALENDAR:
					return Window.calendar("first", limit, CalendarPeriod.of(CalendarPeriod.Unit.DAY, ZoneOffset.UTC));
				default:
					return new Window("first", limit, Duration.ofMillis(duration), algorithm, null, null);
			}
		});
	}

	@Provide
	Arbitrary<List<Step>> histories() {
		return steps().list().ofMaxSize(60);
	}

	private Arbitrary<Step> steps() {
		// Mostly forward, sometimes back (a clock that went back), sometimes far.
		Arbitrary<Long> advances = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.longs().between(0, 700)),
				Tuple.of(1, Arbitraries.longs().between(-2_000, 0)),
				Tuple.of(1, Arbitraries.longs().between(1_000, 4_000_000)));
		return Combinators
			.combine(advances, Arbitraries.longs().between(0, 6), Arbitraries.integers().between(0, 9),
					Arbitraries.longs().between(-8, 8), Arbitraries.of(true, false))
			.as((advance, cost, kind, delta, refusalCounts) -> new Step(advance, cost, kind == 0, kind % 2, delta,
					refusalCounts));
	}

	/**
	 * A take of {@code cost} (0 included: a reservation of nothing in a window) or, when
	 * {@code settles}, a settlement of {@code delta} in {@code window}.
	 */
	record Step(long advanceMillis, long cost, boolean settles, int window, long delta, boolean refusalCounts) {
	}

}
