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
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;

/**
 * Bytes per key of the in-memory store, as the heap delta after full GCs (run with
 * {@code -XX:+UseSerialGC} so a GC compacts everything), for 1,000,000 keys shaped like
 * the starter's ({@code t:} + base64url SHA-256) with one decision each under the
 * two-window budget; the same for Bucket4j local buckets in a ConcurrentHashMap; and the
 * bound under a flood of distinct keys.
 *
 * <p>
 * The key strings are counted: a store keeps the key it was given, and nothing else holds
 * it after the request. Their own share is measured separately so the store's overhead
 * can be read apart.
 *
 * Usage:
 * {@code MemoryFootprint --out results/memory.json [--keys N] [--flood N] [--bound N]}
 */
public final class MemoryFootprint {

	public static void main(String[] args) {
		Map<String, String> options = new LinkedHashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
		}
		int keys = Integer.parseInt(options.getOrDefault("keys", "1000000"));
		int flood = Integer.parseInt(options.getOrDefault("flood", "3000000"));
		int bound = Integer.parseInt(options.getOrDefault("bound", "100000"));
		Budget budget = RedisPeers.budget(600, 36_000);
		long now = System.currentTimeMillis();

		Map<String, Object> out = new LinkedHashMap<>();
		out.put("keys", keys);
		out.put("gc", "SerialGC, heap delta after System.gc() until stable");

		long base = usedAfterGc();
		String[] strings = new String[keys];
		for (int i = 0; i < keys; i++) {
			strings[i] = CallerKeys.key(i);
		}
		long withStrings = usedAfterGc();
		double keyStringBytes = (withStrings - base) / (double) keys;
		out.put("keyStringBytesPerKey", keyStringBytes);
		out.put("keyStringNote", "one key string (" + strings[0].length() + " chars) plus its array slot");

		InProcessRateLimitStore store = RateLimitStores.inMemory(keys + keys / 5);
		for (int i = 0; i < keys; i++) {
			store.take(budget, strings[i], 1, false, now);
		}
		strings = null;
		long withStore = usedAfterGc();
		double limiterBytes = (withStore - base) / (double) keys;
		out.put("limiterBytesPerKey", limiterBytes);
		out.put("limiterBytesPerKeyWithoutKeyString", limiterBytes - keyStringBytes);
		out.put("limiterKeysHeld", store.size());
		System.out.printf("limiter in-memory: %.1f bytes/key (%.1f without the %.1f-byte key string), %d keys held%n",
				limiterBytes, limiterBytes - keyStringBytes, keyStringBytes, store.size());
		if (store.size() != keys) {
			throw new IllegalStateException("store evicted keys during the measurement: " + store.size());
		}
		store = null;

		base = usedAfterGc();
		ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
		for (int i = 0; i < keys; i++) {
			Bucket bucket = Bucket.builder()
				.addLimit(Bandwidth.builder().capacity(600).refillIntervally(600, Duration.ofMinutes(1)).build())
				.addLimit(Bandwidth.builder().capacity(36_000).refillIntervally(36_000, Duration.ofHours(1)).build())
				.build();
			bucket.tryConsume(1);
			buckets.put(CallerKeys.key(i), bucket);
		}
		long withBuckets = usedAfterGc();
		double bucket4jBytes = (withBuckets - base) / (double) keys;
		out.put("bucket4jBytesPerKey", bucket4jBytes);
		out.put("bucket4jBytesPerKeyWithoutKeyString", bucket4jBytes - keyStringBytes);
		System.out.printf("bucket4j local in ConcurrentHashMap: %.1f bytes/key%n", bucket4jBytes);
		buckets = null;

		// The flood: far more distinct keys than the bound, as a caller minting counters
		// would send.
		base = usedAfterGc();
		InProcessRateLimitStore bounded = RateLimitStores.inMemory(bound);
		List<Object> samples = new ArrayList<>();
		int maxSize = 0;
		int step = flood / 10;
		for (int i = 0; i < flood; i++) {
			bounded.take(budget, CallerKeys.key(1_000_000_000L + i), 1, false, now);
			if ((i + 1) % step == 0) {
				int size = bounded.size();
				maxSize = Math.max(maxSize, size);
				Map<String, Object> sample = new LinkedHashMap<>();
				sample.put("distinctKeysSent", i + 1);
				sample.put("keysHeld", size);
				sample.put("heapMiB", (usedAfterGc() - base) / 1048576.0);
				samples.add(sample);
			}
		}
		Map<String, Object> floodResult = new LinkedHashMap<>();
		floodResult.put("maxKeys", bound);
		floodResult.put("distinctKeys", flood);
		floodResult.put("maxKeysHeld", maxSize);
		floodResult.put("samples", samples);
		out.put("flood", floodResult);
		System.out.printf("flood: %,d distinct keys into max-keys %,d: at most %,d held%n", flood, bound, maxSize);
		Json.write(Path.of(options.get("out")), out);
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
