package dev.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import dev.limiter.core.Window;
import dev.limiter.test.redis.DelayingProxy;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPoolConfig;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * On a pooled Jedis (standalone or Sentinel) a decision runs on the calling thread, no
 * pool hand-off, its reply read within the request's time as the socket's read timeout; a
 * connection whose read ran out is closed, never lent to a next caller who would read the
 * late reply as its own; and a connection goes back to the pool with its configured
 * timeout.
 */
@UsesRedisServer
class RedisScriptCallsJedisTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final long NOW = 1_699_999_200_000L + 1_000;

	private static final Budget TEN = Budget.builder("ten")
		.window(Window.of("minute", 10, Duration.ofMinutes(1)))
		.build();

	private static final Budget HUNDRED = Budget.builder("hundred")
		.window(Window.of("minute", 100, Duration.ofMinutes(1)))
		.build();

	private static final Budget CONCURRENT = Budget.builder("concurrent")
		.window(Window.of("minute", 100, Duration.ofMinutes(1)))
		.concurrency(10, Duration.ofMinutes(1))
		.build();

	/** The thread that took a connection from the factory, for each connection taken. */
	private final List<String> borrowers = new CopyOnWriteArrayList<>();

	private JedisConnectionFactory factory;

	private DelayingProxy proxy;

	@AfterEach
	void close() {
		if (factory != null) {
			factory.destroy();
		}
		if (proxy != null) {
			proxy.close();
		}
	}

	@Test
	void takeWhenOnAPooledJedisShouldRunOnTheCallingThread() {
		RedisRateLimitStore store = store(redis.port(), Duration.ofSeconds(10));
		borrowers.clear();

		Decision decision = store.take(TEN, "caller-" + UUID.randomUUID(), 1, false, NOW);

		assertThat(decision.allowed()).isTrue();
		assertThat(borrowers).as("threads that took a connection for the decision")
			.containsExactly(Thread.currentThread().getName());
	}

	@Test
	void takeWhenTheReadRanOutShouldCloseTheConnectionSoTheNextCallerReadsItsOwnReply() throws Exception {
		proxy = new DelayingProxy(redis.port());
		// One connection in the pool: a late reply left on it would be the next call's.
		RedisRateLimitStore store = store(proxy.port(), Duration.ofMillis(300));

		proxy.delay(Duration.ofMillis(1_500));
		assertThatThrownBy(() -> store.take(TEN, "late-" + UUID.randomUUID(), 1, false, NOW))
			.isInstanceOf(RateLimitStoreException.class)
			.hasMessageContaining("did not answer within 300ms");
		proxy.delay(Duration.ZERO);
		// Past the moment the late reply (remaining 9 of 10) reached the proxy's client.
		Thread.sleep(1_700);

		Decision next = store.take(HUNDRED, "next-" + UUID.randomUUID(), 1, false, NOW);
		Decision onTheCallingThreadAgain = store.take(HUNDRED, "again-" + UUID.randomUUID(), 1, false, NOW);

		assertThat(next.verdicts()).singleElement().satisfies(verdict -> {
			assertThat(verdict.limit()).isEqualTo(100);
			assertThat(verdict.remaining()).isEqualTo(99);
		});
		assertThat(onTheCallingThreadAgain.verdicts().get(0).remaining()).isEqualTo(99);
		assertThat(borrowers.get(borrowers.size() - 1)).isEqualTo(Thread.currentThread().getName());
	}

	@Test
	void takeWhenDoneShouldGiveTheConnectionBackWithItsConfiguredTimeout() {
		RedisRateLimitStore store = store(redis.port(), Duration.ofMillis(300));

		store.take(TEN, "caller-" + UUID.randomUUID(), 1, false, NOW);

		try (RedisConnection connection = factory.getConnection()) {
			assertThat(((Jedis) connection.getNativeConnection()).getConnection().getSoTimeout())
				.as("the pool's only connection, the one the decision used")
				.isEqualTo(factory.getTimeout());
		}
	}

	@Test
	void takeWhenTheRequestBeforeOnThisThreadLeftAReleaseRunningShouldNotWaitForIt() {
		proxy = new DelayingProxy(redis.port());
		// Two connections: the release holds one until its late reply, the next request
		// takes the other.
		RedisRateLimitStore store = store(proxy.port(), Duration.ofMillis(300), 2);
		Lease lease;
		try (RequestStoreTime.Scope first = RequestStoreTime.open()) {
			lease = store.take(CONCURRENT, "first-" + UUID.randomUUID(), 1, true, NOW).lease().orElseThrow();
			proxy.delay(Duration.ofMillis(1_500));
			// Sent without waiting; its reply is held past the next request's timeout.
			store.release(lease, NOW);
			awaitExecutedByRedis("zrem");
		}
		proxy.delay(Duration.ZERO);
		borrowers.clear();

		Decision next;
		try (RequestStoreTime.Scope second = RequestStoreTime.open()) {
			next = store.take(TEN, "second-" + UUID.randomUUID(), 1, false, NOW);
		}

		assertThat(next.allowed()).isTrue();
		assertThat(next.degraded()).isFalse();
		assertThat(borrowers).as("threads that took a connection for the next request's decision")
			.containsExactly(Thread.currentThread().getName());
	}

	private RedisRateLimitStore store(int port, Duration timeout) {
		return store(port, timeout, 1);
	}

	/** Until Redis has run the command once: its reply has left for the proxy. */
	private static void awaitExecutedByRedis(String command) {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (!redis.server().info("commandstats").containsKey("cmdstat_" + command)) {
			assertThat(System.nanoTime()).as("Redis ran %s within 5 s", command).isLessThan(deadline);
			Thread.onSpinWait();
		}
	}

	/**
	 * A store on a Jedis pool of {@code connections}, whose factory records which thread
	 * takes each connection.
	 */
	private RedisRateLimitStore store(int port, Duration timeout, int connections) {
		JedisPoolConfig pool = new JedisPoolConfig();
		pool.setMaxTotal(connections);
		factory = new JedisConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port),
				JedisClientConfiguration.builder().usePooling().poolConfig(pool).build()) {

			@Override
			public RedisConnection getConnection() {
				borrowers.add(Thread.currentThread().getName());
				return super.getConnection();
			}

		};
		factory.afterPropertiesSet();
		factory.start();
		return RedisRateLimitStore.builder(factory).timeout(timeout).build();
	}

}
