package dev.limiter.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ceiling: {@code redis-benchmark} sending {@code take.lua} by EVALSHA with the
 * arguments limiter's store sends for the same budget: the C client's throughput is the
 * ceiling for this script on this server. For spread keys, {@code __rand_int__} is
 * replaced by redis-benchmark independently in each key name, so the two keys of one call
 * carry different numbers: the script does the same work (the windows' hash read and
 * written, the leases' key untouched).
 *
 * @param redis the server measured
 * @param redisBenchmark the {@code redis-benchmark} binary; none: no ceiling is measured
 * @param measureMillis the Java peers' measurement time, which sizes the request count
 */
record RedisBenchmarkCeiling(RedisPeers redis, String redisBenchmark, long measureMillis) {

	List<Object> runs(int[] threadCounts) throws IOException, InterruptedException {
		List<Object> runs = new ArrayList<>();
		if (redisBenchmark == null || redisBenchmark.isBlank()) {
			System.out.println("redis-benchmark not available: no ceiling measured");
			return runs;
		}
		long now = System.currentTimeMillis();
		long minuteReset = Math.floorDiv(now, 60_000L) * 60_000L + 60_000L;
		long hourReset = Math.floorDiv(now, 3_600_000L) * 3_600_000L + 3_600_000L;
		for (String keyMode : List.of("hot", "spread")) {
			for (int threads : threadCounts) {
				redis.flushAll();
				String sha = redis.scriptLoad(redis.takeScript());
				String id = keyMode.equals("hot") ? "standard:" + CallerKeys.key(-1) : "standard:t:__rand_int__";
				long requests = Math.max(2_000, (long) (measureMillis / 1000.0 * (threads == 1 ? 12_000 : 30_000)));
				List<String> command = new ArrayList<>(
						List.of(redisBenchmark, "-h", "127.0.0.1", "-p", Integer.toString(redis.port()), "-c",
								Integer.toString(threads), "-n", Long.toString(requests), "--csv"));
				if (keyMode.equals("spread")) {
					command.addAll(List.of("-r", Integer.toString(RedisPeers.SPREAD_KEYS)));
				}
				command.addAll(List.of("EVALSHA", sha, "2", "limiter:{" + id + "}:w", "limiter:{" + id + "}:leases",
						Long.toString(now), "1", "0", "2000", "0", "0", "-", "0", "f",
						Long.toString(RedisPeers.OPEN_MINUTE), Long.toString(minuteReset), "0", "minute:60000", "1",
						"f", Long.toString(RedisPeers.OPEN_HOUR), Long.toString(hourReset), "0", "hour:3600000", "1"));
				// A short unmeasured pass first, as the Java peers get a warm-up.
				runProcess(withRequests(command, Math.max(1_000, requests / 10)));
				redis.resetCommandStats();
				List<String> output = runProcess(command);
				Map<String, Long> stats = redis.commandStats();
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

}
