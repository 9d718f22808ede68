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
 * The token bucket's promises on random arrivals, in memory and behind the local
 * over-limit memory: between any two admissions, what was admitted never exceeds
 * {@code burst + elapsed * limit / duration}; a bucket is never stricter than that bound
 * (a refusal means the tokens were really not there); and {@code Retry-After} is exactly
 * the first millisecond at which the refused request would be admitted.
 */
class TokenBucketArithmeticTests {

	private static final long BASE = 1_699_999_200_000L;

	@Property(tries = 200)
	void bucketWhenGivenAnyArrivalsShouldNeverAdmitMoreThanTheBurstAndTheRefill(@ForAll("windows") Window window,
			@ForAll("arrivals") List<Arrival> arrivals, @ForAll boolean remembering) {
		Budget budget = Budget.builder("bucket").window(window).build();
		RateLimitStore memory = new InMemoryRateLimitStore(10);
		RateLimitStore store = remembering ? new OverLimitRememberingStore(memory) : memory;
		List<long[]> admitted = new ArrayList<>();
		long now = BASE;
		for (Arrival arrival : arrivals) {
			now += arrival.advanceMillis();
			long cost = Math.min(arrival.cost(), window.burst());
			if (store.take(budget, "k", cost, false, now).allowed()) {
				admitted.add(new long[] { now, cost });
			}
		}
		for (int i = 0; i < admitted.size(); i++) {
			long units = 0;
			for (int j = i; j < admitted.size(); j++) {
				units += admitted.get(j)[1];
				long elapsed = admitted.get(j)[0] - admitted.get(i)[0];
				// units <= burst + elapsed * limit / duration, without a division
				assertThat(units * window.durationMillis())
					.as("admitted from %d to %d", admitted.get(i)[0], admitted.get(j)[0])
					.isLessThanOrEqualTo(window.burst() * window.durationMillis() + elapsed * window.limit());
			}
		}
	}

	@Property(tries = 100)
	void bucketWhenRefusedShouldRetryAfterExactlyTheFirstMillisecondThatAdmits(@ForAll("windows") Window window,
			@ForAll("arrivals") List<Arrival> arrivals) {
		Budget budget = Budget.builder("bucket").window(window).build();
		RateLimitStore store = new InMemoryRateLimitStore(10);
		List<long[]> taken = new ArrayList<>();
		long now = BASE;
		for (Arrival arrival : arrivals) {
			now += arrival.advanceMillis();
			long cost = Math.min(arrival.cost(), window.burst());
			Decision decision = store.take(budget, "k", cost, false, now);
			taken.add(new long[] { now, cost });
			if (!decision.allowed()) {
				long retryAt = now + decision.retryAfterMillis();
				assertThat(decision.retryAfterMillis()).isPositive();
				assertThat(replay(budget, taken).take(budget, "k", cost, false, retryAt - 1).allowed())
					.as("a millisecond before the retry")
					.isFalse();
				assertThat(replay(budget, taken).take(budget, "k", cost, false, retryAt).allowed()).as("at the retry")
					.isTrue();
			}
		}
	}

	@Property(tries = 100)
	void bucketWhenFullAfterAnyRestShouldAdmitTheWholeBurstAtOnce(@ForAll("windows") Window window,
			@ForAll("arrivals") List<Arrival> arrivals) {
		Budget budget = Budget.builder("bucket").window(window).build();
		RateLimitStore store = new InMemoryRateLimitStore(10);
		long now = BASE;
		for (Arrival arrival : arrivals) {
			now += arrival.advanceMillis();
			store.take(budget, "k", Math.min(arrival.cost(), window.burst()), false, now);
		}
		// Long enough for any debt to refill.
		long rested = now + window.burst() * window.durationMillis() / window.limit() + window.durationMillis();

		assertThat(store.take(budget, "k", window.burst(), false, rested).allowed()).isTrue();
		assertThat(store.take(budget, "k", 1, false, rested).allowed()).isFalse();
	}

	private static RateLimitStore replay(Budget budget, List<long[]> taken) {
		RateLimitStore store = new InMemoryRateLimitStore(10);
		for (long[] take : taken) {
			store.take(budget, "k", take[1], false, take[0]);
		}
		return store;
	}

	@Provide
	Arbitrary<Window> windows() {
		Arbitrary<Long> limits = Arbitraries.longs().between(1, 12);
		Arbitrary<Long> durations = Arbitraries.of(1_000L, 3_000L, 10_000L, 7_300L);
		Arbitrary<Long> bursts = Arbitraries.longs().between(0, 20);
		return Combinators.combine(limits, durations, bursts)
			.as((limit, duration, burst) -> (burst == 0) ? Window.tokenBucket("w", limit, Duration.ofMillis(duration))
					: Window.tokenBucket("w", limit, Duration.ofMillis(duration), burst));
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
