package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Settlement;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.Window;
import dev.limiter.core.contract.SlicingModelStore;
import dev.limiter.test.redis.SharedRedis;
import dev.limiter.test.redis.UsesRedisServer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code take.lua}'s slice mode and the Java slice rule ({@link SlicingModelStore} over
 * the in-memory store) are two implementations of ADR 0014's rule: random sequences of
 * three instances taking slices of a few keys, giving back part of what they took (as an
 * expired slice does) and peeking, over every algorithm alone and mixed, get the same
 * slices (units and decisions, the notify-at thresholds the slices reached included) from
 * both. The clock moves forward by random steps, often across a window's or a bucket's
 * end and across twice the slices' ttl, where an instance stops counting as one taking
 * slices.
 */
@Tag(UsesRedisServer.TAG)
class RedisSliceDifferentialTests {

	private static final long BASE = 1_699_999_200_000L;

	private static final int INSTANCES = 3;

	private static final List<SliceTerms> TERMS = List.of(new SliceTerms(4, Duration.ofMillis(250)),
			new SliceTerms(50, Duration.ofSeconds(1)));

	static final List<Budget> BUDGETS = List.of(
			Budget.builder("slice-fixed")
				.window(Window.of("second", 30, Duration.ofSeconds(2))
					.withNotifyAt(NotifyAt.of(List.of(20, 50, 90, 100))))
				.build(),
			Budget.builder("slice-sliding")
				.window(Window.sliding("second", 30, Duration.ofSeconds(2), Duration.ofMillis(200)))
				.countRefused(true)
				.build(),
			Budget.builder("slice-bucket").window(Window.tokenBucket("second", 10, Duration.ofSeconds(1), 30)).build(),
			Budget.builder("slice-mixed")
				.window(Window.sliding("sliding", 25, Duration.ofSeconds(1), Duration.ofMillis(100)))
				.window(Window.tokenBucket("bucket", 20, Duration.ofSeconds(2), 40))
				.window(Window.of("fixed", 60, Duration.ofSeconds(3)).withNotifyAt(NotifyAt.of(List.of(50, 75))))
				.build());

	private static LettuceConnectionFactory factory;

	private static synchronized LettuceConnectionFactory connectionFactory() {
		if (factory == null) {
			var server = SharedRedis.standalone();
			factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()));
			factory.afterPropertiesSet();
			factory.start();
		}
		return factory;
	}

	@AfterContainer
	static synchronized void closeConnection() {
		if (factory != null) {
			factory.destroy();
			factory = null;
		}
	}

	@Property(tries = 150)
	void sliceScriptWhenGivenAnySequenceOfInstancesShouldSliceExactlyAsTheJavaRule(
			@ForAll("operations") List<Op> operations, @ForAll("terms") int termsIndex) {
		SliceTerms terms = TERMS.get(termsIndex);
		SlicingModelStore model = new SlicingModelStore(RateLimitStores.inMemory(1_000));
		List<RateLimitStore> java = new ArrayList<>();
		List<RateLimitStore> lua = new ArrayList<>();
		for (int i = 0; i < INSTANCES; i++) {
			java.add(model.instance("i" + i));
			lua.add(RedisRateLimitStore.builder(connectionFactory())
				.expiryMargin(Duration.ofMinutes(5))
				.timeout(RedisTestTimeouts.GENEROUS)
				.build());
		}
		String run = UUID.randomUUID().toString();
		List<Settlement> slices = new ArrayList<>();
		long now = BASE;
		for (int step = 0; step < operations.size(); step++) {
			Op op = operations.get(step);
			now += op.advanceMillis();
			Budget budget = BUDGETS.get(op.budget());
			String key = run + "-" + op.key();
			String what = "step " + step + " " + op;
			switch (op.kind()) {
				case SLICE -> {
					Slice expected = java.get(op.instance()).takeSlice(budget, key, op.cost(), terms, now);
					Slice actual = lua.get(op.instance()).takeSlice(budget, key, op.cost(), terms, now);
					assertThat(actual.units()).as(what).isEqualTo(expected.units());
					assertSameDecision(what, actual.decision(), expected.decision());
					if (expected.units() > op.cost()) {
						slices.add(unspent(budget, key, expected, expected.units() - op.cost()));
					}
				}
				case GIVE_BACK -> {
					if (!slices.isEmpty()) {
						Settlement back = slices.remove(op.cost() % slices.size());
						java.get(0).settle(back, now).toCompletableFuture().join();
						lua.get(0).settle(back, now).toCompletableFuture().join();
					}
				}
				case PEEK -> assertThat(lua.get(0).peek(budget, key, now)).as(what)
					.isEqualTo(java.get(0).peek(budget, key, now));
			}
		}
	}

	/** What an expired slice gives back: {@code units} of every window it counted in. */
	private static Settlement unspent(Budget budget, String key, Slice slice, long units) {
		List<Window> windows = budget.windows();
		long[] instances = new long[windows.size()];
		long[] deltas = new long[windows.size()];
		for (int i = 0; i < instances.length; i++) {
			Window w = windows.get(i);
			instances[i] = w.algorithm().kind().reservedInstance(w, slice.decision().verdicts().get(i));
			deltas[i] = -units;
		}
		return new Settlement(budget, key, instances, deltas, new long[windows.size()], false);
	}

	private static void assertSameDecision(String what, Decision actual, Decision expected) {
		String both = what + "\nexpected " + expected + "\nactual   " + actual;
		assertThat(actual.allowed()).as(both).isEqualTo(expected.allowed());
		assertThat(actual.verdicts()).as(both).isEqualTo(expected.verdicts());
		assertThat(actual.retryAfterMillis()).as(both).isEqualTo(expected.retryAfterMillis());
		assertThat(actual.crossings()).as(both).isEqualTo(expected.crossings());
	}

	@Provide
	Arbitrary<Integer> terms() {
		return Arbitraries.integers().between(0, TERMS.size() - 1);
	}

	@Provide
	Arbitrary<List<Op>> operations() {
		Arbitrary<Kind> kinds = Arbitraries.frequency(Tuple.of(7, Kind.SLICE), Tuple.of(2, Kind.GIVE_BACK),
				Tuple.of(1, Kind.PEEK));
		Arbitrary<Long> advance = Arbitraries.frequency(Tuple.of(4, 0L), Tuple.of(4, 1L), Tuple.of(2, 2L))
			.flatMap((size) -> switch (size.intValue()) {
				case 0 -> Arbitraries.just(0L);
				case 1 -> Arbitraries.longs().between(1, 300);
				default -> Arbitraries.longs().between(301, 3_000);
			});
		return Combinators
			.combine(kinds, Arbitraries.integers().between(0, BUDGETS.size() - 1), Arbitraries.integers().between(0, 1),
					Arbitraries.integers().between(0, INSTANCES - 1), Arbitraries.integers().between(1, 3), advance)
			.as(Op::new)
			.list()
			.ofMinSize(1)
			.ofMaxSize(60);
	}

	enum Kind {

		SLICE, GIVE_BACK, PEEK

	}

	record Op(Kind kind, int budget, int key, int instance, int cost, long advanceMillis) {
	}

}
