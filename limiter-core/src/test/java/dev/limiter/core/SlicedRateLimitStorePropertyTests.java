package dev.limiter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.core.contract.SlicingModelStore;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ADR 0014's invariant and its under-admission bound, over the Java slice rule: random
 * interleavings of three instances (each a {@link SlicedRateLimitStore} over one shared
 * store) taking, spending, giving back expired slices and dying (a dead instance's slice
 * is lost, a new one takes its place), with a clock that moves by random steps, often
 * across a slice's ttl or a window's end. Whatever the interleaving, no span of a window
 * admits more than its bound; within one fixed window whose demand exceeds the bound,
 * what is admitted misses the bound by at most what the dead instances held.
 */
class SlicedRateLimitStorePropertyTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final int INSTANCES = 3;

	private static final SliceTerms TERMS = new SliceTerms(4, Duration.ofMillis(300));

	private static final Budget FIXED = Budget.builder("fixed")
		.window("second", 20, Duration.ofSeconds(1))
		.slices(TERMS)
		.build();

	private static final Budget SLIDING = Budget.builder("sliding")
		.window(Window.sliding("second", 20, Duration.ofSeconds(1), Duration.ofMillis(100)))
		.slices(TERMS)
		.build();

	private static final Budget BUCKET = Budget.builder("bucket")
		.window(Window.tokenBucket("second", 10, Duration.ofSeconds(1), 20))
		.slices(TERMS)
		.build();

	private static final Budget MIXED = Budget.builder("mixed")
		.window(Window.sliding("sliding", 15, Duration.ofSeconds(1), Duration.ofMillis(200)))
		.window("fixed", 25, Duration.ofSeconds(2))
		.slices(TERMS)
		.build();

	@Property(tries = 300)
	void slicesWhenInstancesInterleaveAndDieShouldNeverAdmitMoreThanAFixedWindowsLimit(
			@ForAll("steps") List<Step> steps) {
		List<Long> admitted = run(FIXED, steps);
		for (long at : admitted) {
			long start = Math.floorDiv(at, 1_000) * 1_000;
			assertThat(admitted.stream().filter((t) -> t >= start && t < start + 1_000).count())
				.isLessThanOrEqualTo(20);
		}
	}

	@Property(tries = 300)
	void slicesWhenInstancesInterleaveAndDieShouldNeverAdmitMoreThanASlidingWindowsLimitInAnySpan(
			@ForAll("steps") List<Step> steps) {
		assertNoSpanOver(run(SLIDING, steps), 1_000, 20);
	}

	@Property(tries = 300)
	void slicesWhenInstancesInterleaveAndDieShouldKeepEveryWindowOfAMixedBudget(@ForAll("steps") List<Step> steps) {
		List<Long> admitted = run(MIXED, steps);
		assertNoSpanOver(admitted, 1_000, 15);
		for (long at : admitted) {
			long start = Math.floorDiv(at, 2_000) * 2_000;
			assertThat(admitted.stream().filter((t) -> t >= start && t < start + 2_000).count())
				.isLessThanOrEqualTo(25);
		}
	}

	/**
	 * A token bucket counts the tokens a slice takes when it takes them, and they are
	 * spent within the ttl: a span of {@code T} admits at most
	 * {@code burst + rate × (T + ttl)} (ADR 0014).
	 */
	@Property(tries = 300)
	void slicesWhenInstancesInterleaveAndDieShouldKeepATokenBucketsBurstAndRateOverTheTtl(
			@ForAll("steps") List<Step> steps) {
		List<Long> admitted = run(BUCKET, steps);
		for (int i = 0; i < admitted.size(); i++) {
			for (int j = i; j < admitted.size(); j++) {
				long span = admitted.get(j) - admitted.get(i) + TERMS.ttlMillis();
				long bound = 20 + (10 * span + 999) / 1_000;
				assertThat((long) (j - i + 1)).as("admitted between %d and %d", i, j).isLessThanOrEqualTo(bound);
			}
		}
	}

	@Property(tries = 300)
	void slicesWhenDemandExceedsTheBoundOfOneFixedWindowShouldMissItByAtMostWhatTheDeadHeld(
			@ForAll("oneWindow") List<Step> steps) {
		RateLimitStore shared = RateLimitStores.inMemory(1_000);
		SlicingModelStore model = new SlicingModelStore(shared);
		SlicedRateLimitStore[] instances = new SlicedRateLimitStore[INSTANCES];
		for (int i = 0; i < INSTANCES; i++) {
			instances[i] = new SlicedRateLimitStore(model.instance("i" + i));
		}
		long now = T0;
		long admitted = 0;
		long lost = 0;
		for (Step step : steps) {
			now += step.advanceMillis() % 3;
			if (step.dies()) {
				lost += instances[step.instance()].heldUnits(FIXED, "k");
				instances[step.instance()] = new SlicedRateLimitStore(model.instance("i" + step.instance() + now));
			}
			else if (instances[step.instance()].take(FIXED, "k", 1, false, now).allowed()) {
				admitted++;
			}
		}
		// Demand beyond the bound: every instance asks until it is refused.
		for (SlicedRateLimitStore instance : instances) {
			while (instance.take(FIXED, "k", 1, false, now).allowed()) {
				admitted++;
			}
		}
		assertThat(admitted).isLessThanOrEqualTo(20).isGreaterThanOrEqualTo(20 - lost);
		assertThat(lost).isLessThanOrEqualTo(steps.stream().filter(Step::dies).count() * TERMS.max());
	}

	private static List<Long> run(Budget budget, List<Step> steps) {
		SlicingModelStore model = new SlicingModelStore(RateLimitStores.inMemory(1_000));
		SlicedRateLimitStore[] instances = new SlicedRateLimitStore[INSTANCES];
		for (int i = 0; i < INSTANCES; i++) {
			instances[i] = new SlicedRateLimitStore(model.instance("i" + i));
		}
		List<Long> admitted = new ArrayList<>();
		long now = T0;
		for (Step step : steps) {
			now += step.advanceMillis();
			SlicedRateLimitStore instance = instances[step.instance()];
			if (step.dies()) {
				instances[step.instance()] = new SlicedRateLimitStore(model.instance("i" + step.instance() + now));
			}
			else if (step.sweeps()) {
				instance.giveBackExpired(now);
			}
			else if (instance.take(budget, "k", 1, false, now).allowed()) {
				admitted.add(now);
			}
		}
		return admitted;
	}

	private static void assertNoSpanOver(List<Long> admitted, long durationMillis, long limit) {
		for (long end : admitted) {
			assertThat(admitted.stream().filter((t) -> t > end - durationMillis && t <= end).count())
				.as("admitted in the span ending at %d", end)
				.isLessThanOrEqualTo(limit);
		}
	}

	@Provide
	Arbitrary<List<Step>> steps() {
		Arbitrary<Long> advance = Arbitraries
			.frequency(Tuple.of(6, 0L), Tuple.of(6, 1L), Tuple.of(2, 2L), Tuple.of(1, 3L))
			.flatMap((size) -> switch (size.intValue()) {
				case 0 -> Arbitraries.just(0L);
				case 1 -> Arbitraries.longs().between(1, 40);
				case 2 -> Arbitraries.longs().between(41, 350);
				default -> Arbitraries.longs().between(351, 1_500);
			});
		return step(advance).list().ofMinSize(1).ofMaxSize(200);
	}

	@Provide
	Arbitrary<List<Step>> oneWindow() {
		return step(Arbitraries.longs().between(0, 2)).list().ofMinSize(1).ofMaxSize(80);
	}

	private static Arbitrary<Step> step(Arbitrary<Long> advance) {
		Arbitrary<Integer> what = Arbitraries.frequency(Tuple.of(40, 0), Tuple.of(1, 1), Tuple.of(2, 2));
		return Combinators.combine(Arbitraries.integers().between(0, INSTANCES - 1), what, advance)
			.as((instance, kind, millis) -> new Step(instance, kind == 1, kind == 2, millis));
	}

	/** One instance's step after the clock moved by {@code advanceMillis}. */
	record Step(int instance, boolean dies, boolean sweeps, long advanceMillis) {
	}

}
