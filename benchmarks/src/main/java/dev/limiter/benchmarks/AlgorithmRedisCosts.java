package dev.limiter.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.Window;
import dev.limiter.redis.RedisRateLimitStore;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What each window algorithm costs on Redis, counted rather than timed, against the run's
 * {@code redis-server}: round trips per decision (the commands each driver wrote, counted
 * by a Lettuce {@link CommandListener}, and for limiter also its script calls in
 * {@code INFO commandstats}) on a hot key and on spread keys, beside Bucket4j's Lettuce
 * token bucket; bytes per idle key ({@code MEMORY USAGE} of every key one decision left,
 * the database flushed before); and for a reserve + settle decision (issue 22) the
 * commands sent while the caller waits for the reservation and those sent without waiting
 * for the settlement, with a check that every settlement landed.
 *
 * <p>
 * {@code AlgorithmRedisCosts --port P --out results/algorithms/redis-costs.json}
 */
public final class AlgorithmRedisCosts {

	private static final int DECISIONS = 2_000;

	private static final long OPEN = 1_000_000_000L;

	/** A token a millisecond: the fastest refill a token bucket accepts. */
	private static final long REFILL = 60_000;

	private final RedisCommands<String, String> admin;

	private final LettuceConnectionFactory factory;

	private final LongAdder sent = new LongAdder();

	private final RedisClient bucket4jClient;

	private final StatefulRedisConnection<String, byte[]> bucket4jConnection;

	private final LettuceBasedProxyManager<String> bucket4j;

	private AlgorithmRedisCosts(RedisClient adminClient, int port) {
		this.admin = adminClient.connect().sync();
		CommandListener counter = new CommandListener() {
			@Override
			public void commandStarted(CommandStartedEvent event) {
				sent.increment();
			}
		};
		this.factory = RedisPeers.connectionFactory(port);
		this.factory.getRequiredNativeClient().addListener(counter);
		this.bucket4jClient = RedisClient.create(RedisURI.create("127.0.0.1", port));
		this.bucket4jClient.addListener(counter);
		this.bucket4jConnection = bucket4jClient.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		this.bucket4j = RedisPeers.proxyManager(bucket4jConnection);
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new LinkedHashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
		}
		int port = Integer.parseInt(options.get("port"));
		RedisClient adminClient = RedisClient.create(RedisURI.create("127.0.0.1", port));
		AlgorithmRedisCosts costs = new AlgorithmRedisCosts(adminClient, port);
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("decisions", DECISIONS);
		out.put("redisVersion",
				costs.admin.info("server")
					.lines()
					.filter((l) -> l.startsWith("redis_version:"))
					.findFirst()
					.map((l) -> l.substring("redis_version:".length()).trim())
					.orElse("?"));
		out.put("roundTrips", costs.roundTrips());
		out.put("memoryUsage", costs.memoryUsage());
		out.put("reserveSettle", costs.reserveSettle());
		costs.close();
		adminClient.shutdown();
		Json.write(Path.of(options.get("out")), out);
	}

	/** A one-window budget of each algorithm whose every call is a counted admission. */
	private static Map<String, Budget> openBudgets() {
		Map<String, Budget> budgets = new LinkedHashMap<>();
		budgets.put("fixed-window", Budget.builder("standard").window("minute", OPEN, Duration.ofMinutes(1)).build());
		budgets.put("sliding-window",
				Budget.builder("standard").window(Window.sliding("minute", OPEN, Duration.ofMinutes(1))).build());
		budgets.put("token-bucket",
				Budget.builder("standard")
					.window(Window.tokenBucket("minute", REFILL, Duration.ofMinutes(1), OPEN))
					.build());
		return budgets;
	}

	private Map<String, Object> roundTrips() {
		Map<String, Object> out = new LinkedHashMap<>();
		RateLimitStore store = RedisRateLimitStore.builder(factory).build();
		for (Map.Entry<String, Budget> budget : openBudgets().entrySet()) {
			Map<String, Object> row = new LinkedHashMap<>();
			for (String keyMode : List.of("hot", "spread")) {
				admin.flushall();
				// connects and loads the script
				store.take(budget.getValue(), CallerKeys.key(-9), 1, false, System.currentTimeMillis());
				admin.configResetstat();
				sent.reset();
				for (int i = 0; i < DECISIONS; i++) {
					String key = keyMode.equals("hot") ? CallerKeys.key(-10) : CallerKeys.key(i);
					if (!store.take(budget.getValue(), key, 1, false, System.currentTimeMillis()).allowed()) {
						throw new IllegalStateException("an open budget refused: " + budget.getKey());
					}
				}
				Map<String, Long> stats = commandStats();
				row.put(keyMode, sent.sum() / (double) DECISIONS);
				row.put(keyMode + "ScriptCalls",
						(stats.getOrDefault("evalsha", 0L) + stats.getOrDefault("eval", 0L)) / (double) DECISIONS);
			}
			out.put(budget.getKey(), row);
			System.out.println("round trips per decision, limiter " + budget.getKey() + ": " + row);
		}
		BucketConfiguration configuration = BucketConfiguration.builder()
			.addLimit(Bandwidth.builder().capacity(OPEN).refillGreedy(REFILL, Duration.ofMinutes(1)).build())
			.build();
		Map<String, Object> row = new LinkedHashMap<>();
		for (String keyMode : List.of("hot", "spread")) {
			admin.flushall();
			Decider peer = RedisPeers.bucket4j(bucket4j, configuration);
			peer.decide(CallerKeys.key(-9));
			sent.reset();
			for (int i = 0; i < DECISIONS; i++) {
				peer.decide(keyMode.equals("hot") ? CallerKeys.key(-10) : CallerKeys.key(i));
			}
			row.put(keyMode, sent.sum() / (double) DECISIONS);
		}
		out.put("bucket4j-token-bucket", row);
		System.out.println("round trips per decision, Bucket4j token bucket: " + row);
		return out;
	}

	/**
	 * Bytes Redis holds per key after one decision (600 a minute, or a bucket of 600),
	 * and for the sliding window also after one admission in every second of its minute
	 * (61 buckets, the most its default resolution keeps).
	 */
	private Map<String, Object> memoryUsage() {
		Map<String, Object> out = new LinkedHashMap<>();
		RateLimitStore store = RedisRateLimitStore.builder(factory).build();
		long now = System.currentTimeMillis() / 60_000 * 60_000;
		Map<String, Budget> budgets = new LinkedHashMap<>();
		budgets.put("fixed-window",
				Budget.builder("standard").window(Window.of("minute", 600, Duration.ofMinutes(1))).build());
		budgets.put("sliding-window",
				Budget.builder("standard").window(Window.sliding("minute", 600, Duration.ofMinutes(1))).build());
		budgets.put("token-bucket",
				Budget.builder("standard").window(Window.tokenBucket("minute", 600, Duration.ofMinutes(1))).build());
		for (Map.Entry<String, Budget> budget : budgets.entrySet()) {
			admin.flushall();
			store.take(budget.getValue(), CallerKeys.key(1), 1, false, now);
			out.put(budget.getKey(), bytesOfEveryKey());
		}
		admin.flushall();
		for (int s = 0; s < 61; s++) {
			store.take(budgets.get("sliding-window"), CallerKeys.key(1), 1, false, now + s * 1_000L);
		}
		out.put("sliding-window-61-buckets", bytesOfEveryKey());
		admin.flushall();
		RedisPeers
			.bucket4j(bucket4j,
					BucketConfiguration.builder()
						.addLimit(Bandwidth.builder().capacity(600).refillGreedy(600, Duration.ofMinutes(1)).build())
						.build())
			.decide(CallerKeys.key(1));
		out.put("bucket4j-token-bucket", bytesOfEveryKey());
		admin.flushall();
		System.out.println("MEMORY USAGE per key: " + out);
		return out;
	}

	/** {@code MEMORY USAGE} summed over every key in the database, and the keys. */
	private Map<String, Object> bytesOfEveryKey() {
		Map<String, Object> row = new LinkedHashMap<>();
		long bytes = 0;
		List<String> names = admin.keys("*");
		for (String name : names) {
			bytes += admin.memoryUsage(name);
		}
		row.put("bytes", bytes);
		row.put("keys", names.size());
		return row;
	}

	/**
	 * A reserve + settle decision: the commands written during {@code reserve} (which
	 * returns with the reply, so each is a round trip waited for) and during
	 * {@code settle} (which returns with the reply still to come: how many had not
	 * arrived when it returned is counted too); then every settlement is awaited and the
	 * tokens counted must be exactly what was reported.
	 */
	private Map<String, Object> reserveSettle() throws Exception {
		Map<String, Object> out = new LinkedHashMap<>();
		RateLimitStore store = RedisRateLimitStore.builder(factory).build();
		Budget budget = ReserveSettleRedisBenchmark.BUDGET;
		long[] amounts = budget.amounts(1, Map.of("tokens", ReserveSettleRedisBenchmark.ESTIMATE));
		Map<String, Long> actuals = Map.of("tokens", ReserveSettleRedisBenchmark.USED);
		// One instant for every decision: the counts of the hot key then sit in one
		// minute.
		long now = System.currentTimeMillis();
		for (String keyMode : List.of("hot", "spread")) {
			admin.flushall();
			// connects and loads both scripts
			Decision warm = store.reserve(budget, CallerKeys.key(-9), amounts, false, now);
			store
				.settle(Reservation.of(budget, CallerKeys.key(-9), warm, amounts)
					.orElseThrow()
					.settle(actuals)
					.orElseThrow(), now)
				.toCompletableFuture()
				.get(30, TimeUnit.SECONDS);
			admin.configResetstat();
			sent.reset();
			long waited = 0;
			long unwaited = 0;
			long pendingAtReturn = 0;
			List<CompletableFuture<?>> settlements = new ArrayList<>();
			for (int i = 0; i < DECISIONS; i++) {
				String key = keyMode.equals("hot") ? CallerKeys.key(-10) : CallerKeys.key(i);
				long before = sent.sum();
				Decision decision = store.reserve(budget, key, amounts, false, now);
				long reserved = sent.sum();
				waited += reserved - before;
				Reservation reservation = Reservation.of(budget, key, decision, amounts).orElseThrow();
				CompletableFuture<?> settled = store.settle(reservation.settle(actuals).orElseThrow(), now)
					.toCompletableFuture();
				unwaited += sent.sum() - reserved;
				if (!settled.isDone()) {
					pendingAtReturn++;
				}
				settlements.add(settled);
			}
			for (CompletableFuture<?> settled : settlements) {
				settled.get(30, TimeUnit.SECONDS);
			}
			// read before the peeks below, which are script calls too
			Map<String, Long> stats = commandStats();
			long tokens = 0;
			for (int i = 0; i < (keyMode.equals("hot") ? 1 : DECISIONS); i++) {
				String key = keyMode.equals("hot") ? CallerKeys.key(-10) : CallerKeys.key(i);
				tokens += ReserveSettleRedisBenchmark.OPEN - store.peek(budget, key, now).bounds().get(1).remaining();
			}
			Map<String, Object> row = new LinkedHashMap<>();
			row.put("waitedPerDecision", waited / (double) DECISIONS);
			row.put("sentWithoutWaitingPerDecision", unwaited / (double) DECISIONS);
			row.put("settleRepliesPendingWhenSettleReturned", pendingAtReturn / (double) DECISIONS);
			row.put("scriptCallsPerDecision",
					(stats.getOrDefault("evalsha", 0L) + stats.getOrDefault("eval", 0L)) / (double) DECISIONS);
			row.put("tokensCounted", tokens);
			row.put("tokensReported", DECISIONS * ReserveSettleRedisBenchmark.USED);
			out.put(keyMode, row);
			System.out.println("reserve + settle, " + keyMode + ": " + row);
		}
		return out;
	}

	/** Calls per command since the last reset, from {@code INFO commandstats}. */
	private Map<String, Long> commandStats() {
		Map<String, Long> stats = new LinkedHashMap<>();
		for (String line : admin.info("commandstats").split("\r?\n")) {
			if (!line.startsWith("cmdstat_")) {
				continue;
			}
			String name = line.substring("cmdstat_".length(), line.indexOf(':'));
			long calls = 0;
			for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
				String[] kv = field.split("=");
				if (kv[0].equals("calls")) {
					calls += Long.parseLong(kv[1]);
				}
				else if (kv[0].equals("failed_calls") || kv[0].equals("rejected_calls")) {
					calls -= Long.parseLong(kv[1]);
				}
			}
			stats.put(name, calls);
		}
		return stats;
	}

	private void close() {
		bucket4jConnection.close();
		bucket4jClient.shutdown();
		factory.destroy();
	}

}
