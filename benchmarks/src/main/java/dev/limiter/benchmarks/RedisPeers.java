package dev.limiter.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The peers the Redis load compares, on connections to one {@code redis-server}:
 * limiter's {@link RedisRateLimitStore}, Bucket4j's Lettuce proxy manager with the same
 * two bandwidths, and the bare EVALSHA of {@code take.lua}; plus the administrative
 * connection that flushes the server and reads its command statistics.
 */
final class RedisPeers implements AutoCloseable {

	static final int SPREAD_KEYS = 100_000;

	/**
	 * Limits so high that every call is a counted admission: throughput runs measure the
	 * counting path.
	 */
	static final long OPEN_MINUTE = 1_000_000_000L;

	static final long OPEN_HOUR = 60_000_000_000L;

	static final long SPEC_MINUTE = 600;

	static final long SPEC_HOUR = 36_000;

	private final int port;

	private final RedisClient client;

	private final RedisCommands<String, String> admin;

	private final LettuceConnectionFactory connectionFactory;

	private final StatefulRedisConnection<String, byte[]> bucket4jConnection;

	private final LettuceBasedProxyManager<String> bucket4j;

	private final String[] spreadKeys = CallerKeys.keys(SPREAD_KEYS);

	private final StatefulRedisConnection<byte[], byte[]> rawConnection;

	private final String takeScript;

	private final String takeSha;

	RedisPeers(int port) {
		this.port = port;
		this.client = RedisClient.create(RedisURI.create("127.0.0.1", port));
		this.admin = client.connect().sync();
		this.connectionFactory = connectionFactory(port);
		this.bucket4jConnection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		this.bucket4j = proxyManager(bucket4jConnection);
		this.rawConnection = client.connect(ByteArrayCodec.INSTANCE);
		try (InputStream in = RedisRateLimitStore.class.getResourceAsStream("take.lua")) {
			this.takeScript = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		this.takeSha = admin.scriptLoad(takeScript);
	}

	static LettuceConnectionFactory connectionFactory(int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	static LettuceBasedProxyManager<String> proxyManager(StatefulRedisConnection<String, byte[]> connection) {
		return LettuceBasedProxyManager.builderFor(connection)
			.withExpirationStrategy(
					ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
			.build();
	}

	int port() {
		return port;
	}

	String spreadKey(int i) {
		return spreadKeys[i];
	}

	String takeScript() {
		return takeScript;
	}

	String redisVersion() {
		return admin.info("server")
			.lines()
			.filter(l -> l.startsWith("redis_version:"))
			.findFirst()
			.map(l -> l.substring("redis_version:".length()).trim())
			.orElse("?");
	}

	/**
	 * limiter's store on a fresh over-limit memory, deciding one unit of {@code budget}.
	 */
	Decider limiter(Budget budget) {
		return limiter(connectionFactory, budget);
	}

	static Decider limiter(LettuceConnectionFactory factory, Budget budget) {
		RateLimitStore store = new OverLimitRememberingStore(RedisRateLimitStore.builder(factory).build());
		return key -> store.take(budget, key, 1, false, System.currentTimeMillis()).allowed();
	}

	/** Bucket4j with one bucket per key, kept in a map as an application must. */
	Decider bucket4j(BucketConfiguration configuration) {
		return bucket4j(bucket4j, configuration);
	}

	static Decider bucket4j(LettuceBasedProxyManager<String> proxyManager, BucketConfiguration configuration) {
		Map<String, BucketProxy> buckets = new ConcurrentHashMap<>();
		return key -> buckets.computeIfAbsent(key, k -> proxyManager.builder().build(k, () -> configuration))
			.tryConsume(1);
	}

	/**
	 * The driver floor: the same EVALSHA of {@code take.lua} with the same keys and
	 * arguments as limiter's store sends, straight on a Lettuce connection, with no
	 * decision built from the answer. The gap between this and limiter is limiter's own
	 * Java cost; the gap between this and redis-benchmark is the driver's.
	 */
	boolean rawEvalsha(String key) {
		long now = System.currentTimeMillis();
		String tagged = "limiter:{standard:" + key + "}";
		// The layout take.lua expects (see RedisKeys and TakeScriptCodec): one hash for
		// the windows, then the leases; eight fixed arguments (the last: not a dry run),
		// then per fixed window "f", its limit, its end, 0, its field and the
		// units the request takes from it.
		byte[][] keys = { (tagged + ":w").getBytes(StandardCharsets.UTF_8),
				(tagged + ":leases").getBytes(StandardCharsets.UTF_8) };
		String[] args = { Long.toString(now), "1", "0", "2000", "0", "0", "", "0", "f", Long.toString(OPEN_MINUTE),
				Long.toString(Math.floorDiv(now, 60_000L) * 60_000L + 60_000L), "0", "minute:60000", "1", "f",
				Long.toString(OPEN_HOUR), Long.toString(Math.floorDiv(now, 3_600_000L) * 3_600_000L + 3_600_000L), "0",
				"hour:3600000", "1" };
		byte[][] argBytes = new byte[args.length][];
		for (int i = 0; i < args.length; i++) {
			argBytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
		}
		List<Object> result = rawConnection.sync().evalsha(takeSha, ScriptOutputType.MULTI, keys, argBytes);
		return ((Long) result.get(0)) == 1L;
	}

	/** A connection of its own, for the naive read-then-write counters. */
	RedisCommands<String, String> newConnection() {
		return client.connect().sync();
	}

	void flushAll() {
		admin.flushall();
	}

	String scriptLoad(String script) {
		return admin.scriptLoad(script);
	}

	void resetCommandStats() {
		admin.configResetstat();
	}

	/** Calls per command since the last reset, from {@code INFO commandstats}. */
	Map<String, Long> commandStats() {
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

	/**
	 * Commands the client sent, from {@code INFO commandstats}, which on Redis 6 also
	 * counts the commands a script runs. limiter's {@code take.lua} only calls
	 * HMGET/HSET/PEXPIRE (and Z* for leases, not used here), so its round trips are its
	 * EVALSHA and EVAL calls. Bucket4j sends GET, then EVAL of a compare-and-swap script
	 * that itself calls GET then PSETEX, or {@code SET NX} for a new bucket: so its round
	 * trips are its client GETs plus its EVALs = (all GET - EVALs that ran a GET) + EVALs
	 * = GET + SET.
	 */
	static long roundTrips(String peer, Map<String, Long> stats) {
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

	@Override
	public void close() {
		bucket4jConnection.close();
		rawConnection.close();
		connectionFactory.destroy();
		client.shutdown();
	}

}
