package dev.limiter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.redis.RedisRateLimitStore;
import io.github.bucket4j.BucketConfiguration;

/**
 * Every Redis measurement of issue 6 against one {@code redis-server} (started by
 * {@code benchmarks/run}), written to one JSON file:
 *
 * <ul>
 * <li>throughput and latency of limiter's {@link RedisRateLimitStore} and of Bucket4j's
 * Lettuce proxy manager (same two bandwidths), 1/8/32 client threads, one hot key and
 * 100,000 spread keys, with round trips per decision from {@code INFO commandstats}
 * (reset by {@code CONFIG RESETSTAT} before each measurement): {@link ClosedLoopRun} on
 * the {@link RedisPeers};</li>
 * <li>the ceiling: {@code redis-benchmark} sending limiter's own {@code take.lua} by
 * EVALSHA ({@link RedisBenchmarkCeiling});</li>
 * <li>the refusal loop: a key over its limit hammered, limiter answering from its local
 * over-limit memory;</li>
 * <li>exactness: admitted vs limit under 32 threads for limiter, Bucket4j and a naive
 * read-then-write counter ({@link ExactnessRuns});</li>
 * <li>the round trips counted by the drivers themselves
 * ({@link ClientCountedRoundTrips}).</li>
 * </ul>
 *
 * Usage:
 * {@code RedisLoad --port P --out results/redis.json [--warmup-ms N] [--measure-ms N] [--redis-benchmark PATH]}
 */
public final class RedisLoad {

	private static final int[] THREADS = { 1, 8, 32 };

	private final RedisPeers redis;

	private final ClosedLoopRun closedLoop;

	private final long warmupMillis;

	private final long measureMillis;

	private RedisLoad(RedisPeers redis, long warmupMillis, long measureMillis) {
		this.redis = redis;
		this.closedLoop = new ClosedLoopRun(redis, warmupMillis, measureMillis);
		this.warmupMillis = warmupMillis;
		this.measureMillis = measureMillis;
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = options(args);
		long warmupMillis = Long.parseLong(options.getOrDefault("warmup-ms", "3000"));
		long measureMillis = Long.parseLong(options.getOrDefault("measure-ms", "8000"));
		RedisPeers redis = new RedisPeers(Integer.parseInt(options.get("port")));
		RedisLoad load = new RedisLoad(redis, warmupMillis, measureMillis);
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("redisVersion", redis.redisVersion());
		out.put("warmupMillis", warmupMillis);
		out.put("measureMillis", measureMillis);
		out.put("throughput", load.throughputRuns());
		out.put("ceiling",
				new RedisBenchmarkCeiling(redis, options.get("redis-benchmark"), measureMillis).runs(THREADS));
		out.put("refusalLoop", load.refusalLoop());
		out.put("exactness", new ExactnessRuns(redis).runs());
		out.put("clientCountedRoundTrips", new ClientCountedRoundTrips(redis).measure());
		Json.write(Path.of(options.get("out")), out);
		redis.close();
		System.exit(0);
	}

	private List<Object> throughputRuns() {
		List<Object> runs = new ArrayList<>();
		Budget open = RedisPeers.budget(RedisPeers.OPEN_MINUTE, RedisPeers.OPEN_HOUR);
		BucketConfiguration openBuckets = RedisPeers.bucketConfiguration(RedisPeers.OPEN_MINUTE, RedisPeers.OPEN_HOUR);
		for (String keyMode : List.of("hot", "spread")) {
			for (int threads : THREADS) {
				runs.add(closedLoop.run("limiter", keyMode, threads, redis.limiter(open), null));
				runs.add(closedLoop.run("bucket4j", keyMode, threads, redis.bucket4j(openBuckets), null));
				runs.add(closedLoop.run("lettuce-evalsha", keyMode, threads, redis::rawEvalsha, null));
			}
		}
		return runs;
	}

	/**
	 * One key spends its 600 a minute, then 8 threads hammer it. limiter answers from its
	 * local over-limit memory (zero round trips, exact since refusals are not counted);
	 * Bucket4j, for comparison, asks Redis each time.
	 */
	private List<Object> refusalLoop() {
		List<Object> runs = new ArrayList<>();
		String key = CallerKeys.key(-2);
		Pauses.awaitRoomInMinute(warmupMillis + measureMillis + 3_000);
		Decider limiter = redis.limiter(RedisPeers.budget(RedisPeers.SPEC_MINUTE, RedisPeers.SPEC_HOUR));
		runs.add(closedLoop.run("limiter", "refused", 8, limiter, () -> exhaust(limiter, key)));
		Decider bucket4j = redis.bucket4j(RedisPeers.bucketConfiguration(RedisPeers.SPEC_MINUTE, RedisPeers.SPEC_HOUR));
		Pauses.awaitRoomInMinute(warmupMillis + measureMillis + 3_000);
		runs.add(closedLoop.run("bucket4j", "refused", 8, bucket4j, () -> exhaust(bucket4j, key)));
		return runs.stream().map(r -> {
			@SuppressWarnings("unchecked")
			Map<String, Object> m = (Map<String, Object>) r;
			m.put("key", "one key over its 600/min limit");
			return (Object) m;
		}).toList();
	}

	/**
	 * Spends the key's whole minute window, then checks that the next call is refused.
	 */
	private static void exhaust(Decider decider, String key) {
		long admitted = 0;
		for (int i = 0; i < RedisPeers.SPEC_MINUTE + 1; i++) {
			if (decider.decide(key)) {
				admitted++;
			}
		}
		if (admitted != RedisPeers.SPEC_MINUTE) {
			throw new IllegalStateException(
					"expected " + RedisPeers.SPEC_MINUTE + " admissions while exhausting, got " + admitted);
		}
	}

	private static Map<String, String> options(String[] args) {
		Map<String, String> options = new LinkedHashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
		}
		return options;
	}

}
