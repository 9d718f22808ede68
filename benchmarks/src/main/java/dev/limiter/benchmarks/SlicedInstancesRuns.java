package dev.limiter.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.SlicedRateLimitStore;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import dev.limiter.redis.RedisRateLimitStore;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Leased quota slices across instances (issue 38, ADR 0014), against one
 * {@code redis-server} (started by {@code benchmarks/run}). Two <em>instances</em> in
 * this JVM, each with its own Lettuce connection and its own store stack as the
 * auto-configuration builds it without the fail-open store and the breaker (slices,
 * over-limit memory, Redis), so that Redis sees two slicers of the key, as it would two
 * app instances:
 *
 * <ul>
 * <li><b>hot key</b>: 16 threads per instance on one key whose limit is out of reach,
 * decisions per second with slices ({@code slices.max} 1,000 by default, as in
 * {@link SlicedRedisDecisionBenchmark}) and for the same budget without slices (one
 * script call per decision: the one shard's ceiling as these clients reach it), per
 * window algorithm, with the script calls per decision from {@code INFO commandstats};
 * </li>
 * <li><b>bound</b>: 32 threads per instance on one key with a reachable fixed window
 * (10,000 per 10 s by default, slices at the default {@code max}, 1 % of the limit):
 * admissions counted per window instance by the clock each decision was made at, for
 * whole windows only, against the bound (admitted must never exceed it) and the stated
 * under-admission bound ({@code instances × slices.max}). Demand far exceeds the bound:
 * every thread retries at once after an admission and after 1 ms after a refusal (the
 * pause only keeps a refused key's local refusals from taking the machine's cores).</li>
 * </ul>
 *
 * Usage: {@code SlicedInstancesRuns --port P --out FILE [--warmup-ms 2000]
 * [--measure-ms 5000] [--slice-max 1000] [--bound-limit 10000] [--bound-window-ms 10000]
 * [--bound-windows 3]}
 */
public final class SlicedInstancesRuns {

	private static final int INSTANCES = 2;

	private static final int HOT_THREADS_PER_INSTANCE = 16;

	private static final int BOUND_THREADS_PER_INSTANCE = 32;

	private static final long OPEN = 1_000_000_000L;

	private static final Duration TTL = SliceTerms.DEFAULT_TTL;

	private final RedisPeers redis;

	private final String run = Long.toString(System.currentTimeMillis(), 36);

	private SlicedInstancesRuns(RedisPeers redis) {
		this.redis = redis;
	}

	public static void main(String[] args) {
		Map<String, String> options = options(args);
		long warmupMillis = Long.parseLong(options.getOrDefault("warmup-ms", "2000"));
		long measureMillis = Long.parseLong(options.getOrDefault("measure-ms", "5000"));
		long sliceMax = Long.parseLong(options.getOrDefault("slice-max", "1000"));
		long boundLimit = Long.parseLong(options.getOrDefault("bound-limit", "10000"));
		long boundWindowMillis = Long.parseLong(options.getOrDefault("bound-window-ms", "10000"));
		int boundWindows = Integer.parseInt(options.getOrDefault("bound-windows", "3"));
		RedisPeers redis = new RedisPeers(Integer.parseInt(options.get("port")));
		SlicedInstancesRuns runs = new SlicedInstancesRuns(redis);
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("redisVersion", redis.redisVersion());
		out.put("instances", INSTANCES);
		out.put("warmupMillis", warmupMillis);
		out.put("measureMillis", measureMillis);
		out.put("hotKey", runs.hotKeyRuns(sliceMax, warmupMillis, measureMillis));
		out.put("bound", runs.boundRun(boundLimit, boundWindowMillis, boundWindows));
		Json.write(Path.of(options.get("out")), out);
		redis.close();
		System.exit(0);
	}

	/** One hot key, limit out of reach: sliced and unsliced, per algorithm. */
	private List<Object> hotKeyRuns(long sliceMax, long warmupMillis, long measureMillis) {
		List<Object> rows = new ArrayList<>();
		boolean warmed = false;
		for (WindowAlgorithm algorithm : List.of(WindowAlgorithm.FIXED_WINDOW, WindowAlgorithm.SLIDING_WINDOW,
				WindowAlgorithm.TOKEN_BUCKET)) {
			Window window = (algorithm == WindowAlgorithm.TOKEN_BUCKET)
					? Window.tokenBucket("minute", 60_000, Duration.ofMinutes(1), OPEN)
					: new Window("minute", OPEN, Duration.ofMinutes(1), algorithm, null, null);
			Budget unsliced = Budget.builder("unsliced").window(window).build();
			Budget sliced = Budget.builder("sliced").window(window).slices(new SliceTerms(sliceMax, TTL)).build();
			if (!warmed) {
				// one unrecorded pass over both paths first, so that the first row does
				// not
				// pay for the JIT compiling the client and the store
				for (Budget budget : List.of(unsliced, sliced)) {
					try (Instances instances = new Instances(redis.port())) {
						closedLoop(instances, budget, CallerKeys.key(-4) + "-" + run + "-warm-up",
								HOT_THREADS_PER_INSTANCE, warmupMillis, warmupMillis);
					}
				}
				warmed = true;
			}
			for (Budget budget : List.of(unsliced, sliced)) {
				try (Instances instances = new Instances(redis.port())) {
					Map<String, Object> r = closedLoop(instances, budget,
							CallerKeys.key(-4) + "-" + run + "-" + algorithm.value(), HOT_THREADS_PER_INSTANCE,
							warmupMillis, measureMillis);
					r.put("algorithm", algorithm.value());
					r.put("sliced", budget == sliced);
					r.put("sliceMax", budget == sliced ? sliceMax : null);
					System.out.printf(
							"sliced instances: hot key %-14s %-8s %d x %d threads: %,12.0f decisions/s  %.4f script calls/decision  errors %s%n",
							algorithm.value(), budget == sliced ? "sliced" : "unsliced", INSTANCES,
							HOT_THREADS_PER_INSTANCE, r.get("decisionsPerSecond"), r.get("scriptCallsPerDecision"),
							r.get("errors"));
					rows.add(r);
				}
			}
		}
		return rows;
	}

	/**
	 * One key with a reachable fixed window, hammered by every thread of both instances
	 * until {@code windows} whole window instances have passed.
	 */
	private Map<String, Object> boundRun(long limit, long windowMillis, int windows) {
		Budget plain = Budget.builder("bound").window("window", limit, Duration.ofMillis(windowMillis)).build();
		long sliceMax = SliceTerms.defaultMax(plain);
		Budget budget = Budget.builder("bound")
			.window("window", limit, Duration.ofMillis(windowMillis))
			.slices(new SliceTerms(sliceMax, TTL))
			.build();
		String key = CallerKeys.key(-5) + "-" + run;
		long start = System.currentTimeMillis();
		long first = Math.floorDiv(start, windowMillis);
		long firstWhole = (Math.floorMod(start, windowMillis) == 0) ? first : first + 1;
		long stopAt = (firstWhole + windows) * windowMillis;
		int slots = (int) (firstWhole + windows - first);
		LongAdder[][] admitted = new LongAdder[INSTANCES][slots];
		LongAdder[] decisions = new LongAdder[slots];
		for (int s = 0; s < slots; s++) {
			decisions[s] = new LongAdder();
			for (int i = 0; i < INSTANCES; i++) {
				admitted[i][s] = new LongAdder();
			}
		}
		LongAdder errors = new LongAdder();
		List<Long> scriptCallsAtWindowStarts = new ArrayList<>();
		try (Instances instances = new Instances(redis.port())) {
			List<Thread> workers = new ArrayList<>();
			for (int i = 0; i < INSTANCES; i++) {
				RateLimitStore stack = instances.stacks[i];
				LongAdder[] mine = admitted[i];
				for (int t = 0; t < BOUND_THREADS_PER_INSTANCE; t++) {
					Thread worker = new Thread(() -> {
						long now;
						while ((now = System.currentTimeMillis()) < stopAt) {
							int slot = (int) (Math.floorDiv(now, windowMillis) - first);
							boolean allowed;
							try {
								allowed = stack.take(budget, key, 1, false, now).allowed();
							}
							catch (RuntimeException e) {
								errors.increment();
								allowed = false;
							}
							decisions[slot].increment();
							if (allowed) {
								mine[slot].increment();
							}
							else {
								Pauses.sleep(1);
							}
						}
					}, "bound-" + i + "-" + t);
					workers.add(worker);
				}
			}
			workers.forEach(Thread::start);
			// the script calls sent in each whole window: commandstats read at its start
			for (long w = firstWhole; w <= firstWhole + windows; w++) {
				long wait = w * windowMillis - System.currentTimeMillis();
				if (wait > 0) {
					Pauses.sleep(wait);
				}
				Map<String, Long> stats = redis.commandStats();
				scriptCallsAtWindowStarts.add(stats.getOrDefault("evalsha", 0L) + stats.getOrDefault("eval", 0L));
			}
			Pauses.join(workers.toArray(Thread[]::new));
		}
		long statedUnderAdmission = INSTANCES * sliceMax;
		List<Object> rows = new ArrayList<>();
		for (int w = 0; w < windows; w++) {
			int slot = (int) (firstWhole - first) + w;
			long[] byInstances = new long[INSTANCES];
			long total = 0;
			for (int i = 0; i < INSTANCES; i++) {
				byInstances[i] = admitted[i][slot].sum();
				total += byInstances[i];
			}
			Map<String, Object> r = new LinkedHashMap<>();
			r.put("windowStartMillis", (firstWhole + w) * windowMillis);
			r.put("admitted", total);
			r.put("admittedByInstance", List.of(byInstances[0], byInstances[1]));
			r.put("decisions", decisions[slot].sum());
			r.put("overAdmitted", Math.max(0, total - limit));
			r.put("underAdmitted", Math.max(0, limit - total));
			long calls = scriptCallsAtWindowStarts.get(w + 1) - scriptCallsAtWindowStarts.get(w);
			r.put("scriptCalls", calls);
			r.put("scriptCallsPerAdmission", total == 0 ? null : (double) calls / total);
			System.out.printf(
					"sliced instances: bound window %d: admitted %,d of %,d (%d x %d threads, %,d decisions, %,d script calls; under-admission %,d, stated at most %,d)%n",
					w + 1, total, limit, INSTANCES, BOUND_THREADS_PER_INSTANCE, decisions[slot].sum(), calls,
					limit - total, statedUnderAdmission);
			rows.add(r);
		}
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("algorithm", WindowAlgorithm.FIXED_WINDOW.value());
		out.put("limit", limit);
		out.put("windowMillis", windowMillis);
		out.put("instances", INSTANCES);
		out.put("threadsPerInstance", BOUND_THREADS_PER_INSTANCE);
		out.put("sliceMax", sliceMax);
		out.put("sliceTtlMillis", TTL.toMillis());
		out.put("statedUnderAdmission", statedUnderAdmission);
		out.put("errors", errors.sum());
		out.put("windows", rows);
		return out;
	}

	/**
	 * Every instance's threads deciding one unit of {@code budget} on {@code key} in a
	 * closed loop: a warm-up, then the measured span, the server's command statistics
	 * reset between them.
	 */
	private Map<String, Object> closedLoop(Instances instances, Budget budget, String key, int threadsPerInstance,
			long warmupMillis, long measureMillis) {
		// phase 0: warm-up, 1: measured, 2: done
		AtomicInteger phase = new AtomicInteger();
		LongAdder decisions = new LongAdder();
		LongAdder admitted = new LongAdder();
		LongAdder errors = new LongAdder();
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < INSTANCES; i++) {
			RateLimitStore stack = instances.stacks[i];
			for (int t = 0; t < threadsPerInstance; t++) {
				workers.add(new Thread(() -> {
					long n = 0;
					long ok = 0;
					long failed = 0;
					int p;
					while ((p = phase.get()) < 2) {
						boolean allowed;
						try {
							allowed = stack.take(budget, key, 1, false, System.currentTimeMillis()).allowed();
						}
						catch (RuntimeException e) {
							if (p == 1) {
								failed++;
							}
							continue;
						}
						if (p == 1) {
							n++;
							if (allowed) {
								ok++;
							}
						}
					}
					decisions.add(n);
					admitted.add(ok);
					errors.add(failed);
				}, "hot-" + i + "-" + t));
			}
		}
		workers.forEach(Thread::start);
		Pauses.sleep(warmupMillis);
		double loadBefore = loadAverage();
		redis.resetCommandStats();
		long start = System.nanoTime();
		phase.set(1);
		Pauses.sleep(measureMillis);
		phase.set(2);
		long elapsed = System.nanoTime() - start;
		Map<String, Long> stats = redis.commandStats();
		Pauses.join(workers.toArray(Thread[]::new));
		long calls = stats.getOrDefault("evalsha", 0L) + stats.getOrDefault("eval", 0L);
		Map<String, Object> r = new LinkedHashMap<>();
		r.put("instances", INSTANCES);
		r.put("threadsPerInstance", threadsPerInstance);
		r.put("decisions", decisions.sum());
		r.put("admitted", admitted.sum());
		r.put("errors", errors.sum());
		r.put("seconds", elapsed / 1e9);
		r.put("decisionsPerSecond", decisions.sum() / (elapsed / 1e9));
		r.put("scriptCalls", calls);
		r.put("scriptCallsPerDecision", decisions.sum() == 0 ? null : (double) calls / decisions.sum());
		r.put("commandStats", stats);
		r.put("loadBefore", loadBefore);
		r.put("loadAfter", loadAverage());
		return r;
	}

	/** The 1-minute load average, or -1 where /proc/loadavg cannot be read. */
	private static double loadAverage() {
		try {
			return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
		}
		catch (IOException | RuntimeException e) {
			return -1;
		}
	}

	/** The instances of one row: each its own connection and store stack. */
	private static final class Instances implements AutoCloseable {

		private final LettuceConnectionFactory[] factories = new LettuceConnectionFactory[INSTANCES];

		private final RateLimitStore[] stacks = new RateLimitStore[INSTANCES];

		Instances(int port) {
			for (int i = 0; i < INSTANCES; i++) {
				factories[i] = RedisPeers.connectionFactory(port);
				stacks[i] = new SlicedRateLimitStore(
						new OverLimitRememberingStore(RedisRateLimitStore.builder(factories[i]).build()));
			}
		}

		@Override
		public void close() {
			for (LettuceConnectionFactory factory : factories) {
				factory.destroy();
			}
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
