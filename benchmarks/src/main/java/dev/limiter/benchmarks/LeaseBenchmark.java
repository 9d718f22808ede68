package dev.limiter.benchmarks;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * The expensive path: a two-window decision that also takes a concurrency lease (at most
 * 10 in flight), then hands it back. The nearest peer is Resilience4j's
 * {@code SemaphoreBulkhead} (10 concurrent calls, no wait), one per key in a
 * ConcurrentHashMap; it bounds concurrency only, with no window and no lease expiry, so
 * it does strictly less work than limiter's path. Thread count comes from the command
 * line ({@code -t}).
 */
public class LeaseBenchmark extends ThroughputBenchmark {

	private Budget budget;

	private RateLimitStore limiter;

	private ConcurrentHashMap<String, Bulkhead> bulkheads;

	private BulkheadConfig bulkheadConfig;

	private String key;

	@Setup(Level.Trial)
	public void setUp() {
		budget = Budget.builder("standard")
			.window("minute", 1_000_000_000_000L, Duration.ofMinutes(1))
			.window("hour", 60_000_000_000_000L, Duration.ofHours(1))
			.concurrency(10, Duration.ofSeconds(30))
			.build();
		limiter = RateLimitStores.inMemory(1_000);
		bulkheads = new ConcurrentHashMap<>();
		bulkheadConfig = BulkheadConfig.custom()
			.maxConcurrentCalls(10)
			.maxWaitDuration(java.time.Duration.ZERO)
			.build();
		key = CallerKeys.key(0);
	}

	@Benchmark
	public boolean takeAndReleaseLease() {
		long now = System.currentTimeMillis();
		Decision d = limiter.take(budget, key, 1, true, now);
		d.lease().ifPresent(lease -> limiter.release(lease, now));
		return d.allowed();
	}

	@Benchmark
	public boolean resilience4jBulkheadPerKey() {
		Bulkhead bulkhead = bulkheads.computeIfAbsent(key, k -> new SemaphoreBulkhead(k, bulkheadConfig));
		boolean admitted = bulkhead.tryAcquirePermission();
		if (admitted) {
			bulkhead.onComplete();
		}
		return admitted;
	}

}
