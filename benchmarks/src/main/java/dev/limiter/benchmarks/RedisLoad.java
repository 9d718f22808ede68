package dev.limiter.benchmarks;

import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.redis.RedisRateLimitStore;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every Redis measurement of issue 6 against one {@code redis-server} (started by
 * {@code benchmarks/run}):
 *
 * <ul>
 * <li>throughput and latency of limiter's {@link RedisRateLimitStore} and of Bucket4j's
 * Lettuce proxy manager (same two bandwidths), 1/8/32 client threads, one hot key and
 * 100,000 spread keys, with round trips per decision from {@code INFO commandstats}
 * (reset by {@code CONFIG RESETSTAT} before each measurement);</li>
 * <li>the ceiling: {@code redis-benchmark} sending limiter's own {@code take.lua} by
 * EVALSHA;</li>
 * <li>the refusal loop: a key over its limit hammered, limiter answering from its local
 * over-limit memory;</li>
 * <li>exactness: admitted vs limit under 32 threads for limiter, Bucket4j and a naive
 * read-then-write counter.</li>
 * </ul>
 *
 * Usage:
 * {@code RedisLoad --port P --out results/redis.json [--warmup-ms N] [--measure-ms N] [--redis-benchmark PATH]}
 */
public final class RedisLoad {

	private static final int SPREAD_KEYS = 100_000;

	private static final int MAX_SAMPLES_PER_THREAD = 1 << 20;

	private static final int[] THREADS = { 1, 8, 32 };

	/**
	 * Limits so high that every call is a counted admission: throughput runs measure the
	 * counting path.
	 */
	private static final long OPEN_MINUTE = 1_000_000_000L;

	private static final long OPEN_HOUR = 60_000_000_000L;

	private static final long SPEC_MINUTE = 600;

	private static final long SPEC_HOUR = 36_000;

	private final int port;

	private final long warmupMillis;

	private final long measureMillis;

	private final String redisBenchmark;

	private final RedisClient client;

	private final RedisCommands<String, String> admin;

	private final LettuceConnectionFactory connectionFactory;

	private final StatefulRedisConnection<String, byte[]> bucket4jConnection;

	private final LettuceBasedProxyManager<String> bucket4j;

	private final String[] spreadKeys = CallerKeys.keys(SPREAD_KEYS);

	private final StatefulRedisConnection<byte[], byte[]> rawConnection;

	private final String takeScript;

	private final String takeSha;

	private RedisLoad(int port, long warmupMillis, long measureMillis, String redisBenchmark) {
		this.port = port;
		this.warmupMillis = warmupMillis;
		this.measureMillis = measureMillis;
		this.redisBenchmark = redisBenchmark;
		this.client = RedisClient.create(RedisURI.create("127.0.0.1", port));
		this.admin = client.connect().sync();
		this.connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		this.bucket4jConnection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		this.bucket4j = LettuceBasedProxyManager.builderFor(bucket4jConnection)
			.withExpirationStrategy(
					ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
			.build();
		this.rawConnection = client.connect(ByteArrayCodec.INSTANCE);
		try (InputStream in = RedisRateLimitStore.class.getResourceAsStream("take.lua")) {
			this.takeScript = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
		this.takeSha = admin.scriptLoad(takeScript);
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = options(args);
		int port = Integer.parseInt(options.get("port"));
		RedisLoad load = new RedisLoad(port, Long.parseLong(options.getOrDefault("warmup-ms", "3000")),
				Long.parseLong(options.getOrDefault("measure-ms", "8000")), options.get("redis-benchmark"));
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("redisVersion",
				load.admin.info("server")
					.lines()
					.filter(l -> l.startsWith("redis_version:"))
					.findFirst()
					.map(l -> l.substring("redis_version:".length()).trim())
					.orElse("?"));
		out.put("warmupMillis", load.warmupMillis);
		out.put("measureMillis", load.measureMillis);
		out.put("throughput", load.throughputRuns());
		out.put("ceiling", load.ceilingRuns());
		out.put("refusalLoop", load.refusalLoop());
		out.put("exactness", load.exactness());
		out.put("clientCountedRoundTrips", load.clientCountedRoundTrips());
		Json.write(Path.of(options.get("out")), out);
		load.close();
		System.exit(0);
	}

	// ----------------------------------------------------------------------------------------------
	// throughput

	private List<Object> throughputRuns() {
		List<Object> runs = new ArrayList<>();
		Budget open = budget(OPEN_MINUTE, OPEN_HOUR);
		BucketConfiguration openBuckets = bucketConfiguration(OPEN_MINUTE, OPEN_HOUR);
		for (String keyMode : List.of("hot", "spread")) {
			for (int threads : THREADS) {
				RateLimitStore store = new OverLimitRememberingStore(
						RedisRateLimitStore.builder(connectionFactory).build());
				runs.add(run("limiter", keyMode, threads,
						key -> store.take(open, key, 1, false, System.currentTimeMillis()).allowed(), null));
				Map<String, BucketProxy> buckets = new ConcurrentHashMap<>();
				runs.add(run("bucket4j", keyMode, threads,
						key -> buckets.computeIfAbsent(key, k -> bucket4j.builder().build(k, () -> openBuckets))
							.tryConsume(1),
						null));
				runs.add(run("lettuce-evalsha", keyMode, threads, this::rawEvalsha, null));
			}
		}
		return runs;
	}

	/**
	 * The driver floor: the same EVALSHA of {@code take.lua} with the same keys and
	 * arguments as limiter's store sends, straight on a Lettuce connection, with no
	 * decision built from the answer. The gap between this and limiter is limiter's own
	 * Java cost; the gap between this and redis-benchmark is the driver's.
	 */
	private boolean rawEvalsha(String key) {
		long now = System.currentTimeMillis();
		String tagged = "limiter:{standard:" + key + "}";
		// The layout take.lua expects (see RedisKeys and TakeScriptCodec): one hash for
		// the windows, then the
		// leases; eight fixed arguments (the last: not a dry run), then per window its
		// limit, its end and its field.
		byte[][] keys = { (tagged + ":w").getBytes(StandardCharsets.UTF_8),
				(tagged + ":leases").getBytes(StandardCharsets.UTF_8) };
		String[] args = { Long.toString(now), "1", "0", "2000", "0", "0", "", "0", Long.toString(OPEN_MINUTE),
				Long.toString(Math.floorDiv(now, 60_000L) * 60_000L + 60_000L), "minute:60000",
				Long.toString(OPEN_HOUR), Long.toString(Math.floorDiv(now, 3_600_000L) * 3_600_000L + 3_600_000L),
				"hour:3600000" };
		byte[][] argBytes = new byte[args.length][];
		for (int i = 0; i < args.length; i++) {
			argBytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
		}
		List<Object> result = rawConnection.sync().evalsha(takeSha, ScriptOutputType.MULTI, keys, argBytes);
		return ((Long) result.get(0)) == 1L;
	}

	private interface Decider {

		boolean decide(String key);

	}

	/**
	 * Runs {@code threads} closed-loop callers for the warm-up, resets Redis' command
	 * statistics, measures for the measurement time, then reads the statistics. Each
	 * caller records every call's latency.
	 */
	private Map<String, Object> run(String peer, String keyMode, int threads, Decider decider, Runnable prepare) {
		admin.flushall();
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
				long[] lat = new long[1 << 16];
				int n = 0;
				long ok = 0;
				long calls = 0;
				// Latencies kept: every call until MAX_SAMPLES, then every 2nd, 4th, ...
				// (the local refusal loop
				// makes millions of decisions a second; keeping them all would fill the
				// heap).
				int stride = 1;
				ThreadLocalRandom random = ThreadLocalRandom.current();
				int p;
				while ((p = phase.get()) < 2) {
					String key = spread ? spreadKeys[random.nextInt(SPREAD_KEYS)] : fixedKey;
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
						if (calls++ % stride == 0) {
							if (n == lat.length && n < MAX_SAMPLES_PER_THREAD) {
								lat = Arrays.copyOf(lat, n * 2);
							}
							else if (n == lat.length) {
								for (int i = 0; i < n / 2; i++) {
									lat[i] = lat[2 * i];
								}
								n /= 2;
								stride *= 2;
							}
							lat[n++] = took;
						}
						if (allowed) {
							ok++;
						}
					}
				}
				latencies[id] = Arrays.copyOf(lat, n);
				counts[id] = calls;
				admitted[id] = ok;
			}, peer + "-" + t);
			workers[t].start();
		}
		sleep(warmupMillis);
		admin.configResetstat();
		long start = System.nanoTime();
		phase.set(1);
		sleep(measureMillis);
		phase.set(2);
		long elapsed = System.nanoTime() - start;
		join(workers);
		Map<String, Long> stats = commandStats();
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
		putPercentiles(r, latencies);
		r.put("commandStats", stats);
		r.put("roundTrips", roundTrips(peer, stats));
		r.put("roundTripsPerDecision", decisions == 0 ? 0.0 : (double) roundTrips(peer, stats) / decisions);
		System.out.printf(
				"%-9s %-6s %2d threads: %,10.0f decisions/s  p50 %.3f ms  p99 %.3f ms  %.3f round trips/decision  errors %d%n",
				peer, keyMode, threads, r.get("decisionsPerSecond"), r.get("p50Millis"), r.get("p99Millis"),
				r.get("roundTripsPerDecision"), errors.sum());
		return r;
	}

	/**
	 * Commands the client sent, from {@code INFO commandstats}, which on Redis 6 also
	 * counts the commands a script runs. limiter's {@code take.lua} only calls
	 * HMGET/HSET/PEXPIRE (and Z* for leases, not used here), so its round trips are its
	 * EVALSHA and EVAL calls. Bucket4j sends GET, then EVAL of a compare-and-swap script
	 * that itself calls GET then PSETEX, or {@code SET NX} for a new bucket: so its round
	 * trips are its client GETs plus its EVALs = (all GET - EVALs that ran a GET) + EVALs
	 * = GET + SET.
	 */
	private static long roundTrips(String peer, Map<String, Long> stats) {
		return switch (peer) {
			case "limiter" ->
				stats.getOrDefault("evalsha", 0L) + stats.getOrDefault("eval", 0L) + stats.getOrDefault("zrem", 0L);
			case "bucket4j" -> stats.getOrDefault("get", 0L) + stats.getOrDefault("set", 0L);
			case "lettuce-evalsha" -> stats.getOrDefault("evalsha", 0L);
			case "naive-get-set" -> stats.getOrDefault("get", 0L) + stats.getOrDefault("set", 0L);
			case "naive-get-incr" -> stats.getOrDefault("get", 0L) + stats.getOrDefault("incr", 0L);
			default -> stats.getOrDefault("evalsha", 0L) + stats.getOrDefault("eval", 0L);
		};
	}

	private Map<String, Long> commandStats() {
		Map<String, Long> stats = new LinkedHashMap<>();
		for (String line : admin.info("commandstats").split("\r?\n")) {
			if (!line.startsWith("cmdstat_")) {
				continue;
			}
			String name = line.substring("cmdstat_".length(), line.indexOf(':'));
			for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
				if (field.startsWith("calls=")) {
					stats.put(name, Long.parseLong(field.substring("calls=".length())));
				}
			}
		}
		stats.remove("info");
		stats.remove("config");
		return stats;
	}

	private static void putPercentiles(Map<String, Object> r, long[][] perThread) {
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

	// -------------------------------------------------------------------------------------------------
	// ceiling

	/**
	 * {@code redis-benchmark} sending {@code take.lua} by EVALSHA with the arguments
	 * limiter's store sends for the same budget: the C client's throughput is the ceiling
	 * for this script on this server. For spread keys, {@code __rand_int__} is replaced
	 * by redis-benchmark independently in each key name, so the two keys of one call
	 * carry different numbers: the script does the same work (the windows' hash read and
	 * written, the leases' key untouched).
	 */
	private List<Object> ceilingRuns() throws Exception {
		List<Object> runs = new ArrayList<>();
		if (redisBenchmark == null || redisBenchmark.isBlank()) {
			System.out.println("redis-benchmark not available: no ceiling measured");
			return runs;
		}
		String script = takeScript;
		long now = System.currentTimeMillis();
		long minuteReset = Math.floorDiv(now, 60_000L) * 60_000L + 60_000L;
		long hourReset = Math.floorDiv(now, 3_600_000L) * 3_600_000L + 3_600_000L;
		for (String keyMode : List.of("hot", "spread")) {
			for (int threads : THREADS) {
				admin.flushall();
				String sha = admin.scriptLoad(script);
				String id = keyMode.equals("hot") ? "standard:" + CallerKeys.key(-1) : "standard:t:__rand_int__";
				long requests = Math.max(2_000, (long) (measureMillis / 1000.0 * (threads == 1 ? 12_000 : 30_000)));
				List<String> command = new ArrayList<>(
						List.of(redisBenchmark, "-h", "127.0.0.1", "-p", Integer.toString(port), "-c",
								Integer.toString(threads), "-n", Long.toString(requests), "--csv"));
				if (keyMode.equals("spread")) {
					command.addAll(List.of("-r", Integer.toString(SPREAD_KEYS)));
				}
				command.addAll(List.of("EVALSHA", sha, "2", "limiter:{" + id + "}:w", "limiter:{" + id + "}:leases",
						Long.toString(now), "1", "0", "2000", "0", "0", "-", "0", Long.toString(OPEN_MINUTE),
						Long.toString(minuteReset), "minute:60000", Long.toString(OPEN_HOUR), Long.toString(hourReset),
						"hour:3600000"));
				// A short unmeasured pass first, as the Java peers get a warm-up.
				runProcess(withRequests(command, Math.max(1_000, requests / 10)));
				admin.configResetstat();
				List<String> output = runProcess(command);
				Map<String, Long> stats = commandStats();
				Map<String, Object> r = new LinkedHashMap<>();
				r.put("peer", "redis-benchmark");
				r.put("keys", keyMode);
				r.put("threads", threads);
				r.put("decisions", requests);
				parseCsv(output, r);
				r.put("commandStats", stats);
				long trips = stats.getOrDefault("evalsha", 0L) + stats.getOrDefault("eval", 0L);
				r.put("roundTrips", trips);
				r.put("roundTripsPerDecision", (double) trips / requests);
				System.out.printf("%-15s %-6s %2d clients: %,10.0f decisions/s  p50 %.3f ms  p99 %.3f ms%n",
						"redis-benchmark", keyMode, threads, r.get("decisionsPerSecond"), r.get("p50Millis"),
						r.get("p99Millis"));
				runs.add(r);
			}
		}
		return runs;
	}

	private static List<String> withRequests(List<String> command, long requests) {
		List<String> copy = new ArrayList<>(command);
		copy.set(copy.indexOf("-n") + 1, Long.toString(requests));
		return copy;
	}

	private static void parseCsv(List<String> output, Map<String, Object> r) {
		// "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
		List<String> header = null;
		for (String line : output) {
			List<String> cells = Arrays.stream(line.split(",")).map(c -> c.replace("\"", "").trim()).toList();
			if (cells.contains("rps")) {
				header = cells;
			}
			else if (header != null && cells.size() == header.size()) {
				r.put("decisionsPerSecond", Double.parseDouble(cells.get(header.indexOf("rps"))));
				r.put("p50Millis", Double.parseDouble(cells.get(header.indexOf("p50_latency_ms"))));
				r.put("p99Millis", Double.parseDouble(cells.get(header.indexOf("p99_latency_ms"))));
				r.put("maxMillis", Double.parseDouble(cells.get(header.indexOf("max_latency_ms"))));
				return;
			}
		}
		throw new IllegalStateException("cannot read redis-benchmark output: " + output);
	}

	private static List<String> runProcess(List<String> command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		List<String> lines = new ArrayList<>();
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				lines.add(line);
			}
		}
		if (process.waitFor() != 0) {
			throw new IllegalStateException("redis-benchmark failed: " + lines);
		}
		return lines;
	}

	// ----------------------------------------------------------------------------------------------
	// refusals

	/**
	 * One key spends its 600 a minute, then 8 threads hammer it. limiter answers from its
	 * local over-limit memory (zero round trips, exact since refusals are not counted);
	 * Bucket4j, for comparison, asks Redis each time.
	 */
	private List<Object> refusalLoop() {
		List<Object> runs = new ArrayList<>();
		Budget spec = budget(SPEC_MINUTE, SPEC_HOUR);
		String key = CallerKeys.key(-2);
		awaitRoomInMinute(warmupMillis + measureMillis + 3_000);
		RateLimitStore store = new OverLimitRememberingStore(RedisRateLimitStore.builder(connectionFactory).build());
		runs.add(run("limiter", "refused", 8, k -> store.take(spec, k, 1, false, System.currentTimeMillis()).allowed(),
				() -> exhaust(k -> store.take(spec, k, 1, false, System.currentTimeMillis()).allowed(), key)));
		BucketConfiguration specBuckets = bucketConfiguration(SPEC_MINUTE, SPEC_HOUR);
		Map<String, BucketProxy> buckets = new ConcurrentHashMap<>();
		Decider bucket4jDecider = k -> buckets.computeIfAbsent(k, x -> bucket4j.builder().build(x, () -> specBuckets))
			.tryConsume(1);
		awaitRoomInMinute(warmupMillis + measureMillis + 3_000);
		runs.add(run("bucket4j", "refused", 8, bucket4jDecider, () -> exhaust(bucket4jDecider, key)));
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
		for (int i = 0; i < SPEC_MINUTE + 1; i++) {
			if (decider.decide(key)) {
				admitted++;
			}
		}
		if (admitted != SPEC_MINUTE) {
			throw new IllegalStateException(
					"expected " + SPEC_MINUTE + " admissions while exhausting, got " + admitted);
		}
	}

	/**
	 * A cross-check of the round trips derived from {@code INFO commandstats}: the
	 * commands each peer's driver actually wrote, counted by a Lettuce
	 * {@link CommandListener} on separate clients (kept out of the timed runs, where the
	 * listener would add its own cost), over 2,000 decisions on a fresh hot key and 2,000
	 * spread keys.
	 */
	private Map<String, Object> clientCountedRoundTrips() {
		Map<String, Object> out = new LinkedHashMap<>();
		LongAdder sent = new LongAdder();
		CommandListener counter = new CommandListener() {
			@Override
			public void commandStarted(CommandStartedEvent event) {
				sent.increment();
			}
		};
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port));
		factory.afterPropertiesSet();
		factory.start();
		factory.getRequiredNativeClient().addListener(counter);
		RedisClient counted = RedisClient.create(RedisURI.create("127.0.0.1", port));
		counted.addListener(counter);
		StatefulRedisConnection<String, byte[]> connection = counted
			.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		LettuceBasedProxyManager<String> countedBucket4j = LettuceBasedProxyManager.builderFor(connection)
			.withExpirationStrategy(
					ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
			.build();
		Budget open = budget(OPEN_MINUTE, OPEN_HOUR);
		BucketConfiguration openBuckets = bucketConfiguration(OPEN_MINUTE, OPEN_HOUR);
		RateLimitStore store = new OverLimitRememberingStore(RedisRateLimitStore.builder(factory).build());
		Map<String, BucketProxy> buckets = new ConcurrentHashMap<>();
		Map<String, Decider> peers = new LinkedHashMap<>();
		peers.put("limiter", key -> store.take(open, key, 1, false, System.currentTimeMillis()).allowed());
		peers.put("bucket4j",
				key -> buckets.computeIfAbsent(key, k -> countedBucket4j.builder().build(k, () -> openBuckets))
					.tryConsume(1));
		for (Map.Entry<String, Decider> peer : peers.entrySet()) {
			Map<String, Object> row = new LinkedHashMap<>();
			for (String keyMode : List.of("hot", "spread")) {
				admin.flushall();
				peer.getValue().decide(CallerKeys.key(-9)); // connects and loads what the
															// driver loads once
				sent.reset();
				int n = 2_000;
				for (int i = 0; i < n; i++) {
					peer.getValue().decide(keyMode.equals("hot") ? CallerKeys.key(-10) : spreadKeys[i]);
				}
				row.put(keyMode, sent.sum() / (double) n);
			}
			out.put(peer.getKey(), row);
			System.out.println("client-counted commands per decision " + peer.getKey() + ": " + row);
		}
		connection.close();
		counted.shutdown();
		factory.destroy();
		return out;
	}

	// ---------------------------------------------------------------------------------------------
	// exactness

	/**
	 * 32 threads, 20,000 attempts on one key whose limit is 600 a minute: how many were
	 * admitted. The naive counters read then write (GET then SET count+1, and GET then
	 * INCR), the pattern the Aport seed warns about.
	 */
	private List<Object> exactness() {
		List<Object> rows = new ArrayList<>();
		int threads = 32;
		int attempts = 20_000;
		Budget spec = budget(SPEC_MINUTE, SPEC_HOUR);
		BucketConfiguration specBuckets = bucketConfiguration(SPEC_MINUTE, SPEC_HOUR);
		String key = CallerKeys.key(-3);

		awaitRoomInMinute(10_000);
		admin.flushall();
		RateLimitStore store = new OverLimitRememberingStore(RedisRateLimitStore.builder(connectionFactory).build());
		rows.add(exactnessRow("limiter", threads, attempts,
				() -> store.take(spec, key, 1, false, System.currentTimeMillis()).allowed()));

		admin.flushall();
		Map<String, BucketProxy> buckets = new ConcurrentHashMap<>();
		rows.add(exactnessRow("bucket4j", threads, attempts,
				() -> buckets.computeIfAbsent(key, k -> bucket4j.builder().build(k, () -> specBuckets)).tryConsume(1)));

		RedisCommands<String, String> naive = client.connect().sync();
		admin.flushall();
		rows.add(exactnessRow("naive-get-set", threads, attempts, () -> {
			String v = naive.get(key);
			long count = v == null ? 0 : Long.parseLong(v);
			if (count + 1 > SPEC_MINUTE) {
				return false;
			}
			naive.set(key, Long.toString(count + 1));
			return true;
		}));
		admin.flushall();
		rows.add(exactnessRow("naive-get-incr", threads, attempts, () -> {
			String v = naive.get(key);
			long count = v == null ? 0 : Long.parseLong(v);
			if (count + 1 > SPEC_MINUTE) {
				return false;
			}
			naive.incr(key);
			return true;
		}));
		return rows;
	}

	private interface Attempt {

		boolean attempt();

	}

	private Map<String, Object> exactnessRow(String peer, int threads, int attempts, Attempt attempt) {
		AtomicInteger remaining = new AtomicInteger(attempts);
		LongAdder admitted = new LongAdder();
		LongAdder errors = new LongAdder();
		admin.configResetstat();
		Thread[] workers = new Thread[threads];
		for (int t = 0; t < threads; t++) {
			workers[t] = new Thread(() -> {
				while (remaining.getAndDecrement() > 0) {
					try {
						if (attempt.attempt()) {
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
		join(workers);
		Map<String, Long> stats = commandStats();
		Map<String, Object> r = new LinkedHashMap<>();
		r.put("peer", peer);
		r.put("threads", threads);
		r.put("attempts", attempts);
		r.put("limit", SPEC_MINUTE);
		r.put("admitted", admitted.sum());
		r.put("overAdmitted", Math.max(0, admitted.sum() - SPEC_MINUTE));
		r.put("errors", errors.sum());
		r.put("roundTrips", roundTrips(peer, stats));
		System.out.printf("exactness %-15s admitted %d of limit %d (%d attempts, %d threads)%n", peer, admitted.sum(),
				SPEC_MINUTE, attempts, threads);
		return r;
	}

	// -----------------------------------------------------------------------------------------------
	// helpers

	static Budget budget(long perMinute, long perHour) {
		return Budget.builder("standard")
			.window("minute", perMinute, Duration.ofMinutes(1))
			.window("hour", perHour, Duration.ofHours(1))
			.build();
	}

	static BucketConfiguration bucketConfiguration(long perMinute, long perHour) {
		return BucketConfiguration.builder()
			.addLimit(
					Bandwidth.builder().capacity(perMinute).refillIntervally(perMinute, Duration.ofMinutes(1)).build())
			.addLimit(Bandwidth.builder().capacity(perHour).refillIntervally(perHour, Duration.ofHours(1)).build())
			.build();
	}

	/**
	 * Waits for the next wall-clock minute when fewer than {@code millis} are left in
	 * this one.
	 */
	private static void awaitRoomInMinute(long millis) {
		long now = System.currentTimeMillis();
		long left = 60_000 - Math.floorMod(now, 60_000L);
		if (left < millis) {
			sleep(left + 50);
		}
	}

	private static Map<String, String> options(String[] args) {
		Map<String, String> options = new LinkedHashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
		}
		return options;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	private static void join(Thread[] threads) {
		for (Thread t : threads) {
			try {
				t.join();
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(e);
			}
		}
	}

	private void close() {
		bucket4jConnection.close();
		rawConnection.close();
		connectionFactory.destroy();
		client.shutdown();
	}

}
