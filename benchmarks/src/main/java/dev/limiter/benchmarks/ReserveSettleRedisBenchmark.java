package dev.limiter.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.Window;
import dev.limiter.redis.RedisRateLimitStore;
import dev.limiter.test.redis.RedisServerProcess;
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
 * A decision of a budget in requests and tokens (issue 22's {@code completion} shape: a
 * fixed minute of requests and a fixed minute of tokens, limits far above what a run can
 * spend) on Redis: {@code reserveAndSettle} reserves an estimate of 100 tokens with the
 * request ({@code take.lua}, its reply awaited) and then settles 150 used
 * ({@code settle.lua}, sent without waiting, as the filter does at the request's end);
 * {@code reserveOnly} is the same decision never settled, so the difference is what the
 * settlement costs the caller. One hot key or 100,000 spread ones; threads from the
 * command line. The benchmark starts its own {@code redis-server} (as the tests choose
 * it) and stops it after the trial. The round trips themselves are counted outside the
 * timed runs, by {@code AlgorithmRedisCosts}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class ReserveSettleRedisBenchmark {

	@Param({ "1", "100000" })
	public int keys;

	static final long OPEN = 1_000_000_000_000L;

	static final long ESTIMATE = 100;

	static final long USED = 150;

	/** The sample's completion budget, with its limits raised out of reach. */
	static final Budget BUDGET = Budget.builder("completion")
		.window("minute", OPEN, Duration.ofMinutes(1))
		.window(Window.of("tokens", OPEN, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	private static final Map<String, Long> ESTIMATES = Map.of("tokens", ESTIMATE);

	private static final Map<String, Long> ACTUALS = Map.of("tokens", USED);

	private RedisServerProcess server;

	private LettuceConnectionFactory connectionFactory;

	private RateLimitStore limiter;

	private String[] keyNames;

	private long[] amounts;

	@Setup(Level.Trial)
	public void setUp() {
		server = RedisServerProcess.start(List.of());
		connectionFactory = RedisPeers.connectionFactory(server.port());
		limiter = RedisRateLimitStore.builder(connectionFactory).build();
		keyNames = CallerKeys.keys(keys);
		amounts = BUDGET.amounts(1, ESTIMATES);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		connectionFactory.destroy();
		server.close();
	}

	/** Each thread's walk over the keys, from its own offset. */
	@State(Scope.Thread)
	public static class Cursor {

		private static final AtomicInteger THREADS = new AtomicInteger();

		int next = (THREADS.getAndIncrement() * 40_503) % 100_000;

		@Setup(Level.Trial)
		public void clampTo(ReserveSettleRedisBenchmark benchmark) {
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
	public boolean reserveAndSettle(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		long now = System.currentTimeMillis();
		Decision decision = limiter.reserve(BUDGET, key, amounts, false, now);
		// what the filter does once the handler has reported: the settlement leaves
		// without the caller waiting for its reply
		Reservation.of(BUDGET, key, decision, amounts)
			.flatMap((reservation) -> reservation.settle(ACTUALS))
			.ifPresent((settlement) -> limiter.settle(settlement, now));
		return decision.allowed();
	}

	@Benchmark
	public boolean reserveOnly(Cursor cursor) {
		return limiter.reserve(BUDGET, keyNames[cursor.advance(keys)], amounts, false, System.currentTimeMillis())
			.allowed();
	}

}
