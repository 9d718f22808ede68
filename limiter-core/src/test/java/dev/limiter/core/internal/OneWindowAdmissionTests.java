package dev.limiter.core.internal;

import java.time.Duration;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Window;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A budget of one sliding window or token bucket admits through that algorithm's own
 * short path ({@code BudgetArithmetic.admitAlone}); a budget of the same window beside a
 * fixed window that never binds goes window by window ({@code decideWindows}). On the
 * same arrivals, clocks that go back included, the window must answer the same in both:
 * the short path is the same rule, not another one.
 */
class OneWindowAdmissionTests {

	private static final long BASE = 1_699_999_200_000L;

	/** Never the binding window: far more room than any arrival list takes. */
	private static final Window ROOMY = new Window("roomy", 1_000_000, Duration.ofDays(1));

	@Property(tries = 300)
	void oneWindowWhenAdmittedAloneShouldAnswerAsWindowByWindow(@ForAll("windows") Window window,
			@ForAll("arrivals") List<Arrival> arrivals) {
		Budget alone = Budget.builder("alone").window(window).build();
		Budget beside = Budget.builder("beside").window(window).window(ROOMY).build();
		InMemoryRateLimitStore aloneStore = new InMemoryRateLimitStore(100);
		InMemoryRateLimitStore besideStore = new InMemoryRateLimitStore(100);
		long now = BASE;
		for (Arrival arrival : arrivals) {
			now += arrival.advanceMillis();
			long cost = Math.min(arrival.cost(), window.capacity());
			Decision one = aloneStore.take(alone, "k", cost, false, now);
			Decision two = besideStore.take(beside, "k", cost, false, now);
			assertThat(one.allowed()).as("allowed at %d", now).isEqualTo(two.allowed());
			assertThat(one.verdicts().get(0)).as("verdict at %d", now).isEqualTo(two.verdicts().get(0));
			assertThat(one.retryAfterMillis()).as("retry after at %d", now).isEqualTo(two.retryAfterMillis());
		}
	}

	@Provide
	Arbitrary<Window> windows() {
		Arbitrary<Long> limits = Arbitraries.longs().between(1, 12);
		Arbitrary<Long> durations = Arbitraries.of(1_000L, 3_000L, 10_000L, 7_300L);
		Arbitrary<Integer> steps = Arbitraries.of(0, 1, 3, 7, 10);
		Arbitrary<Window> sliding = Combinators.combine(limits, durations, steps)
			.as((limit, duration, step) -> (step == 0) ? Window.sliding("w", limit, Duration.ofMillis(duration))
					: Window.sliding("w", limit, Duration.ofMillis(duration),
							Duration.ofMillis(Math.max(1, duration / step))));
		Arbitrary<Window> bucket = Combinators.combine(limits, durations, Arbitraries.longs().between(0, 20))
			.as((limit, duration, burst) -> (burst == 0) ? Window.tokenBucket("w", limit, Duration.ofMillis(duration))
					: Window.tokenBucket("w", limit, Duration.ofMillis(duration), burst));
		return Arbitraries.oneOf(sliding, bucket);
	}

	@Provide
	Arbitrary<List<Arrival>> arrivals() {
		Arbitrary<Long> advance = Arbitraries
			.frequency(Tuple.of(3, 0L), Tuple.of(5, 1L), Tuple.of(2, 2L), Tuple.of(1, 3L))
			.flatMap(size -> switch (size.intValue()) {
				case 0 -> Arbitraries.just(0L);
				case 1 -> Arbitraries.longs().between(1, 900);
				case 2 -> Arbitraries.longs().between(901, 12_000);
				// a clock that goes back
				default -> Arbitraries.longs().between(-2_000, -1);
			});
		return Combinators.combine(advance, Arbitraries.longs().between(1, 3)).as(Arrival::new).list().ofMaxSize(80);
	}

	record Arrival(long advanceMillis, long cost) {
	}

}
