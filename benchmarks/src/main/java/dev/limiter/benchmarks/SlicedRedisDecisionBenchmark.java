package dev.limiter.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.SlicedRateLimitStore;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import dev.limiter.redis.RedisRateLimitStore;
import dev.limiter.test.redis.RedisServerProcess;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Leased quota slices on Redis (ADR 0014): the same decisions as
 * {@link AlgorithmRedisDecisionBenchmark}'s {@code limiterRedis}, every call a counted
 * admission (limits far above what a run can spend), but for a budget with slices, so
 * that most decisions are taken locally from a slice ({@code limiterRedisSliced}), beside
 * the same budget without slices through the same stack and Redis
 * ({@code limiterRedisUnsliced}: one script call per decision), so that the two are
 * measured in the same run and compared as a ratio. The store stack is the
 * auto-configuration's without the fail-open store and the breaker (slices, over-limit
 * memory, Redis), on one hot key or spread over 100,000 keys. Its {@code scriptCalls}
 * counter (operations, per second like the score) over the score is the script calls per
 * request. Starts its own {@code redis-server}; threads from the command line.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class SlicedRedisDecisionBenchmark {

	@Param({ "fixed-window", "sliding-window", "token-bucket" })
	public String algorithm;

	@Param({ "1", "100000" })
	public int keys;

	/** The slice: 1 % of a limit of 100,000 a minute, the default's rule. */
	@Param({ "1000" })
	public long sliceMax;

	private static final long OPEN = 1_000_000_000L;

	private static final long REFILL = 60_000;

	private RedisServerProcess server;

	private LettuceConnectionFactory connectionFactory;

	private RateLimitStore limiter;

	private Budget budget;

	/** {@link #budget} without slices: the path every decision took before them. */
	private Budget unsliced;

	private String[] keyNames;

	@Setup(Level.Trial)
	public void setUp() {
		server = RedisServerProcess.start(List.of());
		connectionFactory = RedisPeers.connectionFactory(server.port());
		WindowAlgorithm kind = WindowAlgorithm.fromValue(algorithm);
		Window window = (kind == WindowAlgorithm.TOKEN_BUCKET)
				? Window.tokenBucket("minute", REFILL, Duration.ofMinutes(1), OPEN)
				: new Window("minute", OPEN, Duration.ofMinutes(1), kind, null, null);
		budget = Budget.builder("standard")
			.window(window)
			.slices(new SliceTerms(sliceMax, Duration.ofSeconds(1)))
			.build();
		unsliced = Budget.builder("unsliced").window(window).build();
		RateLimitStore redis = RedisRateLimitStore.builder(connectionFactory).build();
		limiter = new SlicedRateLimitStore(new OverLimitRememberingStore(new ForwardingRateLimitStore() {

			@Override
			protected RateLimitStore delegate() {
				return redis;
			}

			@Override
			public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
				Calls.CURRENT.get().scriptCalls++;
				return redis.take(budget, key, cost, expensive, nowMillis);
			}

			@Override
			public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
				Calls.CURRENT.get().scriptCalls++;
				return redis.takeSlice(budget, key, cost, terms, nowMillis);
			}

		}));
		keyNames = CallerKeys.keys(keys);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		connectionFactory.destroy();
		server.close();
	}

	/** Each thread's script calls, reported by JMH beside the score. */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.OPERATIONS)
	public static class Calls {

		static final ThreadLocal<Calls> CURRENT = ThreadLocal.withInitial(Calls::new);

		public long scriptCalls;

		@Setup(Level.Iteration)
		public void bind() {
			scriptCalls = 0;
			CURRENT.set(this);
		}

	}

	/** Each thread's walk over the keys, from its own offset. */
	@State(Scope.Thread)
	public static class Cursor {

		private static final java.util.concurrent.atomic.AtomicInteger THREADS = new java.util.concurrent.atomic.AtomicInteger();

		int next = (THREADS.getAndIncrement() * 40_503) % 100_000;

		@Setup(Level.Trial)
		public void clampTo(SlicedRedisDecisionBenchmark benchmark) {
			next = next % benchmark.keys;
		}

		int advance(int bound) {
			int i = next++;
			if (next == bound) {
				next = 0;
			}
			return i;
		}

	}

	@Benchmark
	public boolean limiterRedisSliced(Cursor cursor, Calls calls) {
		return limiter.take(budget, keyNames[cursor.advance(keys)], 1, false, System.currentTimeMillis()).allowed();
	}

	/** The same budget without slices: one {@code take.lua} call per decision. */
	@Benchmark
	public boolean limiterRedisUnsliced(Cursor cursor, Calls calls) {
		return limiter.take(unsliced, keyNames[cursor.advance(keys)], 1, false, System.currentTimeMillis()).allowed();
	}

}
