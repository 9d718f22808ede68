package dev.limiter.benchmarks;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One decision of a one-window budget (600 a minute, or a bucket of 600 refilled at 600 a
 * minute) per call, per algorithm of limiter's in-memory store, on one hot key or spread
 * over 100,000 keys, beside Bucket4j's local token bucket of the same size and rate
 * (greedy refill, one bucket per key in a map). {@code limits=open} raises every limit so
 * that every call is a counted admission; {@code spec} keeps the hot key refused most of
 * the time (the local over-limit memory's path).
 */
public class AlgorithmDecisionBenchmark extends ThroughputBenchmark {

	@Param({ "fixed-window", "sliding-window", "token-bucket" })
	public String algorithm;

	@Param({ "1", "100000" })
	public int keys;

	@Param({ "spec", "open" })
	public String limits;

	private String[] keyNames;

	private Budget budget;

	private RateLimitStore limiter;

	private ConcurrentHashMap<String, Bucket> buckets;

	private long perMinute;

	private long burst;

	@Setup(Level.Trial)
	public void setUp() {
		boolean open = limits.equals("open");
		WindowAlgorithm kind = WindowAlgorithm.fromValue(algorithm);
		// A window with a burst (a bucket) refills at most a unit a millisecond: when
		// open, its size keeps every call an admission.
		boolean takesBurst = kind.kind().takesBurst();
		perMinute = !open ? 600 : takesBurst ? 60_000 : 1_000_000_000L;
		burst = open ? 1_000_000_000L : 600;
		keyNames = CallerKeys.keys(keys);
		Window window = new Window("minute", perMinute, Duration.ofMinutes(1), kind,
				takesBurst ? Long.valueOf(burst) : null, null);
		budget = Budget.builder("standard").window(window).build();
		limiter = new OverLimitRememberingStore(RateLimitStores.inMemory(Math.max(keys * 2, 1_000)));
		buckets = new ConcurrentHashMap<>();
	}

	/** Each thread's walk over the keys, from its own offset. */
	@State(Scope.Thread)
	public static class Cursor {

		private static final AtomicInteger THREADS = new AtomicInteger();

		int next = (THREADS.getAndIncrement() * 40_503) % 100_000;

		@Setup(Level.Trial)
		public void clampTo(AlgorithmDecisionBenchmark benchmark) {
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
	public boolean limiterInMemory(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return limiter.take(budget, key, 1, false, System.currentTimeMillis()).allowed();
	}

	/**
	 * The call the rate-limit headers make: the binding window's remaining count, which
	 * an admission's decision makes only when asked. The peer of
	 * {@link #bucket4jLocalTokenBucketWithRemaining}.
	 */
	@Benchmark
	public long limiterInMemoryWithRemaining(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return limiter.take(budget, key, 1, false, System.currentTimeMillis()).bindingWindow().remaining();
	}

	/**
	 * Bucket4j's token bucket of the same size and rate: the peer of
	 * {@code token-bucket}.
	 */
	@Benchmark
	public boolean bucket4jLocalTokenBucket(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return buckets.computeIfAbsent(key, k -> newBucket()).tryConsume(1);
	}

	/**
	 * The same bucket asked for its remaining tokens, as an HTTP filter asks it for its
	 * headers ({@code tryConsumeAndReturnRemaining}, what bucket4j-spring-boot-starter
	 * calls per request).
	 */
	@Benchmark
	public long bucket4jLocalTokenBucketWithRemaining(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return buckets.computeIfAbsent(key, k -> newBucket()).tryConsumeAndReturnRemaining(1).getRemainingTokens();
	}

	private Bucket newBucket() {
		return Bucket.builder()
			.addLimit(Bandwidth.builder()
				.capacity(burst)
				.refillGreedy(Math.min(perMinute, 60_000), Duration.ofMinutes(1))
				.build())
			.build();
	}

}
