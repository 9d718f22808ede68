package dev.limiter.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Window;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sliding window's promises on random arrivals, in memory and behind the local
 * over-limit memory: no span of the window's length ever holds more than its limit; a
 * refusal is never more than one resolution step early (it would also have been refused
 * by a log of every admission that kept each admission one step longer); and
 * {@code Retry-After} is exactly the first millisecond at which the refused request would
 * be admitted; and the buckets held never outnumber the resolution steps in the window,
 * whatever the limit.
 */
class SlidingWindowArithmeticTests {

	private static final long BASE = 1_699_999_200_000L;

	@Property(tries = 200)
	void slidingWhenGivenAnyArrivalsShouldNeverAdmitMoreThanTheLimitInAnySpan(@ForAll("windows") Window window,
			@ForAll("arrivals") List<Arrival> arrivals, @ForAll boolean remembering) {
		Budget budget = Budget.builder("sliding").window(window).build();
		RateLimitStore store = store(remembering);
		List<long[]> admitted = new ArrayList<>();
		long now = BASE;
		for (Arrival arrival : arrivals) {
			now += arrival.advanceMillis();
			long cost = Math.min(arrival.cost(), window.limit());
			Decision decision = store.take(budget, "k", cost, false, now);
			if (decision.allowed()) {
				admitted.add(new long[] { now, cost });
			}
			else {
				// Refused only when a log that kept every admission one step longer
				// would have refused too.
				long counted = sum(admitted, now - window.durationMillis() - window.resolutionMillis(), now);
				assertThat(counted + cost).as("counted at %d", now).isGreaterThan(window.limit());
				assertThat(decision.retryAfterMillis()).isPositive()
					.isLessThanOrEqualTo(window.durationMillis() + window.resolutionMillis());
			}
		}
		for (long[] start : admitted) {
			// Every span [t, t + duration) that starts at an admission.
			assertThat(sum(admitted, start[0] - 1, start[0] + window.durationMillis() - 1))
				.as("admitted in the span from %d", start[0])
				.isLessThanOrEqualTo(window.limit());
		}
	}

	@Property(tries = 100)
	void slidingWhenRefusedShouldRetryAfterExactlyTheFirstMillisecondThatAdmits(@ForAll("windows") Window window,
			@ForAll("arrivals") List<Arrival> arrivals) {
		Budget budget = Budget.builder("sliding").window(window).build();
		RateLimitStore store = store(false);
		List<long[]> taken = new ArrayList<>();
		long now = BASE;
		for (Arrival arrival : arrivals) {
			now += arrival.advanceMillis();
			long cost = Math.min(arrival.cost(), window.limit());
			Decision decision = store.take(budget, "k", cost, false, now);
			taken.add(new long[] { now, cost });
			if (!decision.allowed()) {
				long retryAt = now + decision.retryAfterMillis();
				assertThat(replay(budget, taken).take(budget, "k", cost, false, retryAt - 1).allowed())
					.as("a millisecond before the retry")
					.isFalse();
				assertThat(replay(budget, taken).take(budget, "k", cost, false, retryAt).allowed()).as("at the retry")
					.isTrue();
			}
		}
	}

	@Property(tries = 100)
	void slidingWhenGivenAnyArrivalsShouldHoldAtMostOneBucketPerResolutionStepWhateverTheLimit(
			@ForAll("windows") Window window, @ForAll("arrivals") List<Arrival> arrivals) {
		Window large = Window.sliding("w", 1_000_000, window.duration(), Duration.ofMillis(window.resolutionMillis()));
		Budget budget = Budget.builder("sliding").window(large).build();
		CounterState state = new CounterState(1);
		long now = BASE;
		for (Arrival arrival : arrivals) {
			now += arrival.advanceMillis();
			BudgetArithmetic.take(budget, "k", state, arrival.cost(), false, now, () -> "lease");
			long steps = -Math.floorDiv(-large.durationMillis(), large.resolutionMillis());
			assertThat(state.slide(0)[0]).as("buckets held at %d", now).isLessThanOrEqualTo(steps + 1);
		}
	}

	private static RateLimitStore replay(Budget budget, List<long[]> taken) {
		RateLimitStore store = new InMemoryRateLimitStore(10);
		for (long[] take : taken) {
			store.take(budget, "k", take[1], false, take[0]);
		}
		return store;
	}

	private static RateLimitStore store(boolean remembering) {
		RateLimitStore memory = new InMemoryRateLimitStore(10);
		return remembering ? new OverLimitRememberingStore(memory) : memory;
	}

	/** Units admitted in {@code (after, until]}. */
	private static long sum(List<long[]> admitted, long after, long until) {
		long sum = 0;
		for (long[] a : admitted) {
			if (a[0] > after && a[0] <= until) {
				sum += a[1];
			}
		}
		return sum;
	}

	@Provide
	Arbitrary<Window> windows() {
		Arbitrary<Long> limits = Arbitraries.longs().between(1, 12);
		Arbitrary<Long> durations = Arbitraries.of(1_000L, 3_000L, 10_000L, 7_300L);
		Arbitrary<Integer> steps = Arbitraries.of(0, 1, 3, 10);
		return Combinators.combine(limits, durations, steps)
			.as((limit, duration, steps1) -> (steps1 == 0) ? Window.sliding("w", limit, Duration.ofMillis(duration))
					: Window.sliding("w", limit, Duration.ofMillis(duration),
							Duration.ofMillis(Math.max(1, duration / steps1))));
	}

	@Provide
	Arbitrary<List<Arrival>> arrivals() {
		Arbitrary<Long> advance = Arbitraries
			.frequency(net.jqwik.api.Tuple.of(3, 0L), net.jqwik.api.Tuple.of(5, 1L), net.jqwik.api.Tuple.of(2, 2L))
			.flatMap(size -> switch (size.intValue()) {
				case 0 -> Arbitraries.just(0L);
				case 1 -> Arbitraries.longs().between(1, 900);
				default -> Arbitraries.longs().between(901, 12_000);
			});
		return Combinators.combine(advance, Arbitraries.longs().between(1, 3)).as(Arrival::new).list().ofMaxSize(60);
	}

	record Arrival(long advanceMillis, long cost) {
	}

}
