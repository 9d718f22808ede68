package dev.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the store leaves in Redis: only keys under its prefix, each expiring, none holding
 * a raw token.
 */
@UsesRedisServer
class RedisRateLimitStoreKeysTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final long T0 = 1_699_999_200_000L;

	private static final String TOKEN = "tok_live_5f3a9c1e7b2d4a60";

	@Test
	void keysWhenTrafficEndsShouldAllExpireStayUnderThePrefixAndNeverHoldTheToken() throws Exception {
		RedisRateLimitStore store = RedisRateLimitStore.builder(redis.connectionFactory())
			.keyPrefix("rl-test")
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();
		String key = HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-256").digest(TOKEN.getBytes(StandardCharsets.UTF_8)));
		Budget standard = Budget.builder("standard")
			.window("minute", 3, Duration.ofMinutes(1))
			.window("hour", 100, Duration.ofHours(1))
			.concurrency(2, Duration.ofSeconds(30))
			.build();
		Budget strict = Budget.builder("strict").window("second", 1, Duration.ofSeconds(1)).countRefused(true).build();
		List<Decision> decisions = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			decisions.add(store.take(standard, key, 1, i % 2 == 0, T0 + i));
			decisions.add(store.take(strict, key, 1, false, T0 + i));
		}
		decisions.get(0).lease().ifPresent(lease -> store.release(lease, T0 + 10));

		List<String> keys = scanAll();

		assertThat(decisions).anyMatch(Decision::allowed).anyMatch(d -> !d.allowed());
		// standard: its windows hash and its leases; strict: its windows hash.
		assertThat(keys).hasSize(3).allMatch(k -> k.startsWith("rl-test:{"));
		assertThat(keys).noneMatch(k -> k.contains(TOKEN));
		for (String k : keys) {
			assertThat((Long) redis.server().call("PTTL", k)).as("TTL of %s", k).isPositive();
			assertThat(dump(k)).as("contents of %s", k).doesNotContain(TOKEN);
		}
	}

	private static List<String> scanAll() {
		List<String> keys = new ArrayList<>();
		String cursor = "0";
		do {
			@SuppressWarnings("unchecked")
			List<Object> page = (List<Object>) redis.server().call("SCAN", cursor, "COUNT", 1000);
			cursor = (String) page.get(0);
			@SuppressWarnings("unchecked")
			List<Object> names = (List<Object>) page.get(1);
			names.forEach(n -> keys.add((String) n));
		}
		while (!cursor.equals("0"));
		return keys;
	}

	private static String dump(String key) {
		String type = (String) redis.server().call("TYPE", key);
		return switch (type) {
			case "hash" -> String.valueOf(redis.server().call("HGETALL", key));
			case "zset" -> String.valueOf(redis.server().call("ZRANGE", key, 0, -1, "WITHSCORES"));
			default -> type;
		};
	}

}
