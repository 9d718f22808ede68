package dev.limiter.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The measurement loop of the throughput and refusal runs: closed-loop callers for the
 * warm-up, Redis' command statistics reset, then the measurement, each caller recording
 * its calls' latencies; the row says decisions per second, percentiles and round trips
 * per decision.
 */
final class ClosedLoopRun {

	private final RedisPeers redis;

	private final long warmupMillis;

	private final long measureMillis;

	ClosedLoopRun(RedisPeers redis, long warmupMillis, long measureMillis) {
		this.redis = redis;
		this.warmupMillis = warmupMillis;
		this.measureMillis = measureMillis;
	}

	/**
	 * Runs {@code threads} callers of {@code decider} on one hot key, one key over its
	 * limit ({@code refused}) or keys spread over {@link RedisPeers#SPREAD_KEYS};
	 * {@code prepare}, if any, runs on the flushed server first.
	 */
	Map<String, Object> run(String peer, String keyMode, int threads, Decider decider, Runnable prepare) {
		redis.flushAll();
		if (prepare != null) {
			prepare.run();
		}
		String fixedKey = keyMode.equals("refused") ? CallerKeys.key(-2) : CallerKeys.key(-1);
		boolean spread = keyMode.equals("spread");
		AtomicInteger phase = new AtomicInteger();
		long[][] latencies = new long[threads][];
		long[] counts = new long[threads];
		long[] admitted = new long[threads];
		LongAdder errors = new LongAdder();
		AtomicLong firstError = new AtomicLong();
		List<String> errorSamples = new ArrayList<>();
		Thread[] workers = new Thread[threads];
		for (int t = 0; t < threads; t++) {
			int id = t;
			workers[t] = new Thread(() -> {
				LatencySamples samples = new LatencySamples();
				long ok = 0;
				ThreadLocalRandom random = ThreadLocalRandom.current();
				int p;
				// phase 0: warm-up, 1: measured, 2: done
				while ((p = phase.get()) < 2) {
					String key = spread ? redis.spreadKey(random.nextInt(RedisPeers.SPREAD_KEYS)) : fixedKey;
					long start = System.nanoTime();
					boolean allowed;
					try {
						allowed = decider.decide(key);
					}
					catch (RuntimeException e) {
						if (p == 1) {
							errors.increment();
							if (firstError.compareAndSet(0, 1)) {
								synchronized (errorSamples) {
									errorSamples.add(e.toString());
								}
							}
						}
						continue;
					}
					long took = System.nanoTime() - start;
					if (p == 1) {
						samples.record(took);
						if (allowed) {
							ok++;
						}
					}
				}
				latencies[id] = samples.kept();
				counts[id] = samples.calls();
				admitted[id] = ok;
			}, peer + "-" + t);
			workers[t].start();
		}
		Pauses.sleep(warmupMillis);
		redis.resetCommandStats();
		long start = System.nanoTime();
		phase.set(1);
		Pauses.sleep(measureMillis);
		phase.set(2);
		long elapsed = System.nanoTime() - start;
		Pauses.join(workers);
		Map<String, Long> stats = redis.commandStats();
		long decisions = Arrays.stream(counts).sum();
		Map<String, Object> r = new LinkedHashMap<>();
		r.put("peer", peer);
		r.put("keys", keyMode);
		r.put("threads", threads);
		r.put("decisions", decisions);
		r.put("admitted", Arrays.stream(admitted).sum());
		r.put("errors", errors.sum());
		if (!errorSamples.isEmpty()) {
			r.put("errorSample", errorSamples.get(0));
		}
		r.put("seconds", elapsed / 1e9);
		r.put("decisionsPerSecond", decisions / (elapsed / 1e9));
		LatencySamples.putPercentiles(r, latencies);
		r.put("commandStats", stats);
		long roundTrips = RedisPeers.roundTrips(peer, stats);
		r.put("roundTrips", roundTrips);
		r.put("roundTripsPerDecision", decisions == 0 ? 0.0 : (double) roundTrips / decisions);
		System.out.printf(
				"%-9s %-6s %2d threads: %,10.0f decisions/s  p50 %.3f ms  p99 %.3f ms  %.3f round trips/decision  errors %d%n",
				peer, keyMode, threads, r.get("decisionsPerSecond"), r.get("p50Millis"), r.get("p99Millis"),
				r.get("roundTripsPerDecision"), errors.sum());
		return r;
	}

}
