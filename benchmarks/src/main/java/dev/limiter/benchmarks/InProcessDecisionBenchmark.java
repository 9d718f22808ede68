package dev.limiter.benchmarks;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One two-window decision (600/min + 36,000/h) per call, on one hot key or spread over
 * 100,000 keys: limiter's in-memory store against Bucket4j's local bucket with the same
 * two bandwidths and Resilience4j's AtomicRateLimiter (one window only: it has no second
 * bandwidth). Keyed peers keep their buckets in a ConcurrentHashMap, as an application
 * serving many callers must. Bucket4j runs twice: {@code tryConsume} answers a boolean,
 * {@code tryConsumeAndReturnRemaining} also the remaining tokens and the wait that
 * rate-limit headers need, which limiter's decision always carries.
 *
 * <p>
 * {@code limits=spec} uses the budget as written, so the hot key spends most calls
 * refused (that is the loop an API sees); {@code limits=open} raises every limit so that
 * every call is an admission.
 *
 * <p>
 * Keys look like the starter's real ones ({@code t:} + base64url SHA-256). Thread count
 * comes from the command line ({@code -t 1}, {@code -t 2}; see {@code benchmarks/run});
 * all threads share one store, and each starts its walk over the keys at its own offset
 * so that two threads do not march over the same keys in step.
 */
public class InProcessDecisionBenchmark extends ThroughputBenchmark {

	@Param({ "1", "100000" })
	public int keys;

	@Param({ "spec", "open" })
	public String limits;

	private String[] keyNames;

	private Budget budget;

	private RateLimitStore limiter;

	private ConcurrentHashMap<String, Bucket> buckets;

	private ConcurrentHashMap<String, RateLimiter> rateLimiters;

	private long perMinute;

	private long perHour;

	@Setup(Level.Trial)
	public void setUp() {
		perMinute = limits.equals("spec") ? 600 : 1_000_000_000L;
		perHour = limits.equals("spec") ? 36_000 : 60_000_000_000L;
		keyNames = CallerKeys.keys(keys);
		budget = Budget.builder("standard")
			.window("minute", perMinute, Duration.ofMinutes(1))
			.window("hour", perHour, Duration.ofHours(1))
			.build();
		limiter = new OverLimitRememberingStore(RateLimitStores.inMemory(Math.max(keys * 2, 1_000)));
		buckets = new ConcurrentHashMap<>();
		rateLimiters = new ConcurrentHashMap<>();
	}

	@State(Scope.Thread)
	public static class Cursor {

		private static final java.util.concurrent.atomic.AtomicInteger THREADS = new java.util.concurrent.atomic.AtomicInteger();

		int next = (THREADS.getAndIncrement() * 40_503) % 100_000;

		@Setup(Level.Trial)
		public void clampTo(InProcessDecisionBenchmark benchmark) {
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
	 * an admission's decision makes only when asked. The counterpart of
	 * {@link #bucket4jLocalWithRemaining}.
	 */
	@Benchmark
	public long limiterInMemoryWithRemaining(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return limiter.take(budget, key, 1, false, System.currentTimeMillis()).bindingWindow().remaining();
	}

	@Benchmark
	public boolean bucket4jLocal(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return bucket(key).tryConsume(1);
	}

	private Bucket bucket(String key) {
		return buckets.computeIfAbsent(key, k -> Bucket.builder()
			.addLimit(
					Bandwidth.builder().capacity(perMinute).refillIntervally(perMinute, Duration.ofMinutes(1)).build())
			.addLimit(Bandwidth.builder().capacity(perHour).refillIntervally(perHour, Duration.ofHours(1)).build())
			.build());
	}

	/**
	 * The call a limiter built on Bucket4j makes to answer with headers: the remaining
	 * tokens and the wait come back with the verdict, as limiter's decision carries them.
	 */
	@Benchmark
	public long bucket4jLocalWithRemaining(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return bucket(key).tryConsumeAndReturnRemaining(1).getRemainingTokens();
	}

	@Benchmark
	public boolean resilience4jAtomicOneWindow(Cursor cursor) {
		String key = keyNames[cursor.advance(keys)];
		return rateLimiters
			.computeIfAbsent(key,
					k -> new AtomicRateLimiter(k,
							RateLimiterConfig.custom()
								.limitForPeriod((int) Math.min(Integer.MAX_VALUE, perMinute))
								.limitRefreshPeriod(Duration.ofMinutes(1))
								.timeoutDuration(Duration.ZERO)
								.build()))
			.acquirePermission();
	}

}
