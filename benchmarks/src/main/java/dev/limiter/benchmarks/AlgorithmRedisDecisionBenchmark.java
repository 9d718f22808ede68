package dev.limiter.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.Budget;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import dev.limiter.redis.RedisRateLimitStore;
import dev.limiter.test.redis.RedisServerProcess;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
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
 * One Redis decision per call (one round trip of {@code take.lua}) per algorithm, every
 * call a counted admission (limits far above what a run can spend), on one hot key or
 * spread over 100,000 keys, beside Bucket4j's Lettuce token bucket of the same size and
 * rate. The benchmark starts its own {@code redis-server} (chosen as the tests choose it:
 * the one on {@code PATH}, else the embedded binary) and stops it after the trial.
 * Threads come from the command line ({@code -t 1}, {@code -t 32}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class AlgorithmRedisDecisionBenchmark {

	@Param({ "fixed-window", "sliding-window", "token-bucket" })
	public String algorithm;

	@Param({ "1", "100000" })
	public int keys;

	private static final long OPEN = 1_000_000_000L;

	/** A token a millisecond: the fastest refill a token bucket accepts. */
	private static final long REFILL = 60_000;

	private RedisServerProcess server;

	private LettuceConnectionFactory connectionFactory;

	private RedisClient client;

	private StatefulRedisConnection<String, byte[]> bucket4jConnection;

	private LettuceBasedProxyManager<String> proxyManager;

	private final Map<String, BucketProxy> buckets = new ConcurrentHashMap<>();

	private BucketConfiguration bucketConfiguration;

	private RateLimitStore limiter;

	private Budget budget;

	private String[] keyNames;

	@Setup(Level.Trial)
	public void setUp() {
		server = RedisServerProcess.start(List.of());
		connectionFactory = RedisPeers.connectionFactory(server.port());
		client = RedisClient.create(RedisURI.create("127.0.0.1", server.port()));
		bucket4jConnection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		proxyManager = RedisPeers.proxyManager(bucket4jConnection);
		bucketConfiguration = BucketConfiguration.builder()
			.addLimit(Bandwidth.builder().capacity(OPEN).refillGreedy(REFILL, Duration.ofMinutes(1)).build())
			.build();
		WindowAlgorithm kind = WindowAlgorithm.fromValue(algorithm);
		// A window with a burst (a bucket) refills at most a unit a millisecond: its
		// size,
		// not its rate, keeps every call an admission.
		boolean burst = kind.kind().takesBurst();
		Window window = new Window("minute", burst ? REFILL : OPEN, Duration.ofMinutes(1), kind,
				burst ? Long.valueOf(OPEN) : null, null);
		budget = Budget.builder("standard").window(window).build();
		// No over-limit memory: every call is an admission, so it would only ever pass
		// through.
		limiter = RedisRateLimitStore.builder(connectionFactory).build();
		keyNames = CallerKeys.keys(keys);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		bucket4jConnection.close();
		client.shutdown();
		connectionFactory.destroy();
		server.close();
	}

	/** Each thread's walk over the keys, from its own offset. */
	@State(Scope.Thread)
	public static class Cursor {

		private static final java.util.concurrent.atomic.AtomicInteger THREADS = new java.util.concurrent.atomic.AtomicInteger();

		int next = (THREADS.getAndIncrement() * 40_503) % 100_000;

		@Setup(Level.Trial)
		public void clampTo(AlgorithmRedisDecisionBenchmark benchmark) {
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
	public boolean limiterRedis(Cursor cursor) {
		return limiter.take(budget, keyNames[cursor.advance(keys)], 1, false, System.currentTimeMillis()).allowed();
	}

	/**
	 * Bucket4j's Lettuce token bucket of the same size and rate: the peer of
	 * {@code token-bucket}.
	 */
	@Benchmark
	public boolean bucket4jLettuceTokenBucket(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return buckets.computeIfAbsent(key, (k) -> proxyManager.builder().build(k, () -> bucketConfiguration))
			.tryConsume(1);
	}

}
