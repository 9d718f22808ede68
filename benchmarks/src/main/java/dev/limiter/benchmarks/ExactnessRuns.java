package dev.limiter.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

import io.lettuce.core.api.sync.RedisCommands;

/**
 * Exactness: 32 threads, 20,000 attempts on one key whose limit is 600 a minute: how many
 * were admitted, for limiter, Bucket4j and two naive counters that read then write (GET
 * then SET count+1, and GET then INCR), the pattern the Aport seed warns about.
 */
final class ExactnessRuns {

	private static final int THREADS = 32;

	private static final int ATTEMPTS = 20_000;

	private final RedisPeers redis;

	ExactnessRuns(RedisPeers redis) {
		this.redis = redis;
	}

	List<Object> runs() {
		List<Object> rows = new ArrayList<>();
		String key = CallerKeys.key(-3);

		Pauses.awaitRoomInMinute(10_000);
		redis.flushAll();
		Decider limiter = redis.limiter(RedisPeers.budget(RedisPeers.SPEC_MINUTE, RedisPeers.SPEC_HOUR));
		rows.add(row("limiter", () -> limiter.decide(key)));

		redis.flushAll();
		Decider bucket4j = redis.bucket4j(RedisPeers.bucketConfiguration(RedisPeers.SPEC_MINUTE, RedisPeers.SPEC_HOUR));
		rows.add(row("bucket4j", () -> bucket4j.decide(key)));

		RedisCommands<String, String> naive = redis.newConnection();
		redis.flushAll();
		rows.add(row("naive-get-set", () -> {
			long count = naiveCount(naive, key);
			if (count + 1 > RedisPeers.SPEC_MINUTE) {
				return false;
			}
			naive.set(key, Long.toString(count + 1));
			return true;
		}));
		redis.flushAll();
		rows.add(row("naive-get-incr", () -> {
			if (naiveCount(naive, key) + 1 > RedisPeers.SPEC_MINUTE) {
				return false;
			}
			naive.incr(key);
			return true;
		}));
		return rows;
	}

	private static long naiveCount(RedisCommands<String, String> naive, String key) {
		String v = naive.get(key);
		return v == null ? 0 : Long.parseLong(v);
	}

	private Map<String, Object> row(String peer, BooleanSupplier attempt) {
		AtomicInteger remaining = new AtomicInteger(ATTEMPTS);
		LongAdder admitted = new LongAdder();
		LongAdder errors = new LongAdder();
		redis.resetCommandStats();
		Thread[] workers = new Thread[THREADS];
		for (int t = 0; t < THREADS; t++) {
			workers[t] = new Thread(() -> {
				while (remaining.getAndDecrement() > 0) {
					try {
						if (attempt.getAsBoolean()) {
							admitted.increment();
						}
					}
					catch (RuntimeException e) {
						errors.increment();
					}
				}
			});
		}
		for (Thread w : workers) {
			w.start();
		}
		Pauses.join(workers);
		Map<String, Long> stats = redis.commandStats();
		Map<String, Object> r = new LinkedHashMap<>();
		r.put("peer", peer);
		r.put("threads", THREADS);
		r.put("attempts", ATTEMPTS);
		r.put("limit", RedisPeers.SPEC_MINUTE);
		r.put("admitted", admitted.sum());
		r.put("overAdmitted", Math.max(0, admitted.sum() - RedisPeers.SPEC_MINUTE));
		r.put("errors", errors.sum());
		r.put("roundTrips", RedisPeers.roundTrips(peer, stats));
		System.out.printf("exactness %-15s admitted %d of limit %d (%d attempts, %d threads)%n", peer, admitted.sum(),
				RedisPeers.SPEC_MINUTE, ATTEMPTS, THREADS);
		return r;
	}

}
