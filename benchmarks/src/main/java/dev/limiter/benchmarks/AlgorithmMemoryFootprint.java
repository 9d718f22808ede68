package dev.limiter.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Budget;
import dev.limiter.core.InProcessRateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Window;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;

/**
 * Bytes per key in the JVM for each window algorithm of a one-window budget (600 a
 * minute), with the key string: after one admission, and for the sliding window also
 * after one admission in every second of its minute (61 buckets, the most it holds at its
 * default resolution); beside Bucket4j's local token bucket of the same size in a
 * ConcurrentHashMap. Run with {@code -XX:+UseSerialGC} and a fixed heap ({@code -Xms} =
 * {@code -Xmx}); the heap is read after {@code System.gc()} until it is stable, and every
 * store stays reachable until the end.
 *
 * <p>
 * {@code AlgorithmMemoryFootprint --out results/algorithms/memory.json [--keys N]}
 */
public final class AlgorithmMemoryFootprint {

	private AlgorithmMemoryFootprint() {
	}

	public static void main(String[] args) {
		Map<String, String> options = new LinkedHashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
		}
		int keys = Integer.parseInt(options.getOrDefault("keys", "200000"));
		long now = System.currentTimeMillis() / 60_000 * 60_000;
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("keys", keys);
		out.put("gc", "SerialGC, heap growth after System.gc() until stable; key strings included");
		Map<String, Budget> budgets = new LinkedHashMap<>();
		budgets.put("fixed-window",
				Budget.builder("m").window(Window.of("minute", 600, Duration.ofMinutes(1))).build());
		budgets.put("sliding-window",
				Budget.builder("m").window(Window.sliding("minute", 600, Duration.ofMinutes(1))).build());
		budgets.put("token-bucket",
				Budget.builder("m").window(Window.tokenBucket("minute", 600, Duration.ofMinutes(1))).build());
		// Every store measured stays reachable until the end, so each reading is the
		// growth
		// its own keys caused: nothing measured before has to be collected in between (a
		// store dropped after its reading was seen to linger past the next one's base).
		List<Object> kept = new ArrayList<>();
		Heap heap = new Heap();
		for (Map.Entry<String, Budget> budget : budgets.entrySet()) {
			out.put(budget.getKey(), measure(budget.getValue(), keys, now, 1, heap, kept));
		}
		out.put("sliding-window-61-buckets", measure(budgets.get("sliding-window"), keys, now, 61, heap, kept));

		ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
		for (int i = 0; i < keys; i++) {
			Bucket bucket = Bucket.builder()
				.addLimit(Bandwidth.builder().capacity(600).refillGreedy(600, Duration.ofMinutes(1)).build())
				.build();
			bucket.tryConsume(1);
			buckets.put(CallerKeys.key(i), bucket);
		}
		double bucket4j = heap.growth() / (double) keys;
		kept.add(buckets);
		out.put("bucket4j-local-token-bucket", bucket4j);
		System.out.printf("bucket4j local token bucket: %.1f bytes/key%n", bucket4j);
		Json.write(Path.of(options.get("out")), out);
		System.out.println("measured " + kept.size() + " stores");
	}

	/** The heap in use after full collections, read once per measurement. */
	private static final class Heap {

		private long last = usedAfterGc();

		/** Bytes more in use than at the previous reading. */
		long growth() {
			long used = usedAfterGc();
			long growth = used - last;
			last = used;
			return growth;
		}

	}

	/** Bytes per key after {@code seconds} admissions per key, one a second. */
	private static double measure(Budget budget, int keys, long now, int seconds, Heap heap, List<Object> kept) {
		InProcessRateLimitStore store = RateLimitStores.inMemory(keys + keys / 5);
		for (int s = 0; s < seconds; s++) {
			for (int i = 0; i < keys; i++) {
				store.take(budget, CallerKeys.key(i), 1, false, now + s * 1_000L);
			}
		}
		double bytes = heap.growth() / (double) keys;
		if (store.size() != keys) {
			throw new IllegalStateException("store evicted keys during the measurement: " + store.size());
		}
		kept.add(store);
		System.out.printf("limiter in-memory %s, %d admission(s) a key: %.1f bytes/key%n",
				budget.windows().get(0).algorithm(), seconds, bytes);
		return bytes;
	}

	private static long usedAfterGc() {
		Runtime rt = Runtime.getRuntime();
		long previous = Long.MAX_VALUE;
		for (int i = 0; i < 10; i++) {
			System.gc();
			long used = rt.totalMemory() - rt.freeMemory();
			if (Math.abs(previous - used) < 64 * 1024) {
				return used;
			}
			previous = used;
		}
		return previous;
	}

}
