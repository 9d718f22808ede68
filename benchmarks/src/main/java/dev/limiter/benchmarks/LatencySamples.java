package dev.limiter.benchmarks;

import java.util.Arrays;
import java.util.Map;

/**
 * One caller's latencies: every call until {@value #MAX_SAMPLES} are kept, then every
 * 2nd, 4th, ... (the local refusal loop makes millions of decisions a second; keeping
 * them all would fill the heap).
 */
final class LatencySamples {

	private static final int MAX_SAMPLES = 1 << 20;

	private long[] samples = new long[1 << 16];

	private int n;

	private int stride = 1;

	private long calls;

	void record(long nanos) {
		if (calls++ % stride == 0) {
			if (n == samples.length && n < MAX_SAMPLES) {
				samples = Arrays.copyOf(samples, n * 2);
			}
			else if (n == samples.length) {
				for (int i = 0; i < n / 2; i++) {
					samples[i] = samples[2 * i];
				}
				n /= 2;
				stride *= 2;
			}
			samples[n++] = nanos;
		}
	}

	/** Every call recorded, sampled or not. */
	long calls() {
		return calls;
	}

	long[] kept() {
		return Arrays.copyOf(samples, n);
	}

	/** The p50, p99, p99.9 and maximum of every caller's samples, in milliseconds. */
	static void putPercentiles(Map<String, Object> r, long[][] perThread) {
		long[] all = Arrays.stream(perThread).flatMapToLong(Arrays::stream).toArray();
		Arrays.sort(all);
		r.put("p50Millis", percentile(all, 0.50));
		r.put("p99Millis", percentile(all, 0.99));
		r.put("p999Millis", percentile(all, 0.999));
		r.put("maxMillis", all.length == 0 ? 0.0 : all[all.length - 1] / 1e6);
	}

	private static double percentile(long[] sorted, double q) {
		if (sorted.length == 0) {
			return 0.0;
		}
		int i = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
		return sorted[Math.max(0, i)] / 1e6;
	}

}
