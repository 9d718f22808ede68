package dev.limiter.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A cross-check of the round trips derived from {@code INFO commandstats}: the commands
 * each peer's driver actually wrote, counted by a Lettuce {@link CommandListener} on
 * separate clients (kept out of the timed runs, where the listener would add its own
 * cost), over 2,000 decisions on a fresh hot key and 2,000 spread keys.
 */
final class ClientCountedRoundTrips {

	private static final int DECISIONS = 2_000;

	private final RedisPeers redis;

	ClientCountedRoundTrips(RedisPeers redis) {
		this.redis = redis;
	}

	Map<String, Object> measure() {
		Map<String, Object> out = new LinkedHashMap<>();
		LongAdder sent = new LongAdder();
		CommandListener counter = new CommandListener() {
			@Override
			public void commandStarted(CommandStartedEvent event) {
				sent.increment();
			}
		};
		LettuceConnectionFactory factory = RedisPeers.connectionFactory(redis.port());
		factory.getRequiredNativeClient().addListener(counter);
		RedisClient counted = RedisClient.create(RedisURI.create("127.0.0.1", redis.port()));
		counted.addListener(counter);
		StatefulRedisConnection<String, byte[]> connection = counted
			.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		LettuceBasedProxyManager<String> countedBucket4j = RedisPeers.proxyManager(connection);
		Map<String, Decider> peers = new LinkedHashMap<>();
		peers.put("limiter",
				RedisPeers.limiter(factory, RedisPeers.budget(RedisPeers.OPEN_MINUTE, RedisPeers.OPEN_HOUR)));
		peers.put("bucket4j", RedisPeers.bucket4j(countedBucket4j,
				RedisPeers.bucketConfiguration(RedisPeers.OPEN_MINUTE, RedisPeers.OPEN_HOUR)));
		for (Map.Entry<String, Decider> peer : peers.entrySet()) {
			Map<String, Object> row = new LinkedHashMap<>();
			for (String keyMode : List.of("hot", "spread")) {
				redis.flushAll();
				// connects and loads what the driver loads once
				peer.getValue().decide(CallerKeys.key(-9));
				sent.reset();
				for (int i = 0; i < DECISIONS; i++) {
					peer.getValue().decide(keyMode.equals("hot") ? CallerKeys.key(-10) : redis.spreadKey(i));
				}
				row.put(keyMode, sent.sum() / (double) DECISIONS);
			}
			out.put(peer.getKey(), row);
			System.out.println("client-counted commands per decision " + peer.getKey() + ": " + row);
		}
		connection.close();
		counted.shutdown();
		factory.destroy();
		return out;
	}

}
