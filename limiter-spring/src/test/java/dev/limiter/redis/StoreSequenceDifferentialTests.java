package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.test.redis.SharedRedis;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Lua ≡ Java differential tests share: the Lua script and the Java arithmetic
 * are two implementations of one rule, so random sequences of take, release and peek over
 * a few keys and budgets must get identical answers from the in-memory store and the
 * Redis store (lease ids aside). Time mostly moves forward, often landing on a window end
 * or lease expiry or a millisecond either side of it, and sometimes goes back, by less
 * than the in-memory store's expiry margin (further back, a store may already have
 * forgotten a key whose windows all ended). The Redis store sits behind the local
 * over-limit memory, as the auto-configuration wires it, so its shortcuts are held to the
 * same answers. A subclass gives the budgets and its own property, which calls
 * {@link #assertRedisAnswersAsTheInMemoryStore}.
 */
abstract class StoreSequenceDifferentialTests {

	private static final long BASE = 1_699_999_200_000L;

	/**
	 * The furthest the clock goes back behind the latest time seen: just inside the
	 * in-memory expiry margin.
	 */
	private static final long MAX_CLOCK_BACK_MILLIS = 1_999;

	private static LettuceConnectionFactory standaloneFactory;

	private static LettuceConnectionFactory clusterFactory;

	private LettuceConnectionFactory connectionFactory() {
		synchronized (StoreSequenceDifferentialTests.class) {
			if (onCluster()) {
				if (clusterFactory == null) {
					clusterFactory = started(new LettuceConnectionFactory(
							new RedisClusterConfiguration(SharedRedis.cluster().addresses())));
				}
				return clusterFactory;
			}
			if (standaloneFactory == null) {
				var server = SharedRedis.standalone();
				standaloneFactory = started(
						new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port())));
			}
			return standaloneFactory;
		}
	}

	private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	@AfterContainer
	static synchronized void closeConnections() {
		if (standaloneFactory != null) {
			standaloneFactory.destroy();
			standaloneFactory = null;
		}
		if (clusterFactory != null) {
			clusterFactory.destroy();
			clusterFactory = null;
		}
	}

	/**
	 * Whether the Redis store talks to the shared three-master Cluster rather than the
	 * shared standalone server.
	 */
	protected boolean onCluster() {
		return false;
	}

	/** Where a sequence's clock starts, before its offset. */
	protected long base() {
		return BASE;
	}

	/** The budgets the sequences decide, chosen by {@link Op#budget()}. */
	protected abstract List<Budget> budgets();

	protected final void assertRedisAnswersAsTheInMemoryStore(List<Op> operations, long offset) {
		RateLimitStore memory = RateLimitStores.inMemory(1_000);
		// A wide margin: keys must not expire in real time while the test's clock stands
		// still.
		RateLimitStore redis = new OverLimitRememberingStore(RedisRateLimitStore.builder(connectionFactory())
			.expiryMargin(Duration.ofMinutes(5))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build());
		String run = UUID.randomUUID().toString();
		List<Lease[]> held = new ArrayList<>();
		long now = base() + offset;
		long latest = now;

		for (int step = 0; step < operations.size(); step++) {
			Op op = operations.get(step);
			now = next(now, latest, op);
			latest = Math.max(latest, now);
			Budget budget = budgets().get(op.budget());
			String key = run + "-" + op.key();
			switch (op.kind()) {
				case TAKE -> {
					Decision expected = memory.take(budget, key, op.cost(), op.expensive(), now);
					Decision actual = redis.take(budget, key, op.cost(), op.expensive(), now);
					assertSameDecision(step, op, actual, expected);
					if (expected.lease().isPresent()) {
						held.add(new Lease[] { expected.lease().get(), actual.lease().get() });
					}
				}
				case RELEASE -> {
					if (!held.isEmpty()) {
						Lease[] pair = held.remove(op.cost() % held.size());
						memory.release(pair[0], now);
						redis.release(pair[1], now);
					}
				}
				case PEEK -> {
					KeyState expected = memory.peek(budget, key, now);
					KeyState actual = redis.peek(budget, key, now);
					assertThat(actual).as("step %d %s", step, op).isEqualTo(expected);
				}
			}
		}
	}

	/**
	 * The time of the next step. Window ends and lease expiries sit on 100 ms boundaries,
	 * so a landing on a boundary, or {@code edge} milliseconds off it, is where a key's
	 * window or lease ends or has just ended.
	 */
	private static long next(long now, long latest, Op op) {
		if (op.backMillis() > 0) {
			long back = now - op.backMillis();
			if (op.advanceMillis() < 0) {
				back = Math.floorDiv(back, 100) * 100 + op.edge();
			}
			return Math.max(back, latest - MAX_CLOCK_BACK_MILLIS);
		}
		if (op.advanceMillis() >= 0) {
			return now + op.advanceMillis();
		}
		return Math.max(now, now - op.advanceMillis() * 100 - Math.floorMod(now, 100) + op.edge());
	}

	private static void assertSameDecision(int step, Op op, Decision actual, Decision expected) {
		String what = "step " + step + " " + op + "\nexpected " + expected + "\nactual   " + actual;
		assertThat(actual.allowed()).as(what).isEqualTo(expected.allowed());
		assertThat(actual.verdicts()).as(what).isEqualTo(expected.verdicts());
		assertThat(actual.refusingBound()).as(what).isEqualTo(expected.refusingBound());
		assertThat(actual.retryAfterMillis()).as(what).isEqualTo(expected.retryAfterMillis());
		assertThat(actual.retryAfterSeconds()).as(what).isEqualTo(expected.retryAfterSeconds());
		assertThat(actual.bindingWindow()).as(what).isEqualTo(expected.bindingWindow());
		assertThat(actual.decidedAtMillis()).as(what).isEqualTo(expected.decidedAtMillis());
		assertThat(actual.degraded()).as(what).isEqualTo(expected.degraded());
		assertThat(actual.counted()).as(what).isEqualTo(expected.counted());
		assertThat(actual.crossings()).as(what).isEqualTo(expected.crossings());
		assertThat(actual.lease().isPresent()).as(what).isEqualTo(expected.lease().isPresent());
		if (expected.lease().isPresent()) {
			Lease e = expected.lease().get();
			Lease a = actual.lease().get();
			assertThat(List.of(a.budget(), a.key(), a.expiresAtMillis())).as(what)
				.isEqualTo(List.of(e.budget(), e.key(), e.expiresAtMillis()));
		}
	}

	@Provide
	Arbitrary<Long> offsets() {
		return Arbitraries.longs().between(0, 3_600_000);
	}

	@Provide
	Arbitrary<List<Op>> operations() {
		Arbitrary<Kind> kinds = Arbitraries.frequency(net.jqwik.api.Tuple.of(7, Kind.TAKE),
				net.jqwik.api.Tuple.of(2, Kind.RELEASE), net.jqwik.api.Tuple.of(1, Kind.PEEK));
		Arbitrary<Long> advance = Arbitraries
			.frequency(net.jqwik.api.Tuple.of(4, 0L), net.jqwik.api.Tuple.of(3, 1L), net.jqwik.api.Tuple.of(3, 3L),
					net.jqwik.api.Tuple.of(1, 2L))
			.flatMap(size -> switch (size.intValue()) {
				case 0 -> Arbitraries.just(0L);
				case 1 -> Arbitraries.longs().between(1, 400);
				case 3 -> Arbitraries.longs().between(-30, -1);
				default -> Arbitraries.longs().between(401, 6_000);
			});
		Arbitrary<Integer> edge = Arbitraries.of(-1, 0, 0, 1);
		Arbitrary<Long> back = Arbitraries.frequency(net.jqwik.api.Tuple.of(8, 0L), net.jqwik.api.Tuple.of(2, 1L))
			.flatMap(size -> size == 0 ? Arbitraries.just(0L) : Arbitraries.longs().between(1, 2_500));
		Arbitrary<Op> op = Combinators
			.combine(kinds, Arbitraries.integers().between(0, budgets().size() - 1),
					Arbitraries.integers().between(0, 2), Arbitraries.integers().between(1, 3),
					Arbitraries.of(true, false), advance, edge, back)
			.as(Op::new);
		return op.list().ofMinSize(1).ofMaxSize(60);
	}

	enum Kind {

		TAKE, RELEASE, PEEK

	}

	/**
	 * {@code advanceMillis} below zero means: move to the {@code -advanceMillis}-th next
	 * 100 ms boundary, then {@code edge} milliseconds off it. {@code backMillis} above
	 * zero means: go back that far instead (onto a boundary's edge when
	 * {@code advanceMillis} is below zero), never further than
	 * {@link #MAX_CLOCK_BACK_MILLIS} behind the latest time seen.
	 */
	record Op(Kind kind, int budget, int key, int cost, boolean expensive, long advanceMillis, int edge,
			long backMillis) {
	}

}
