package dev.limiter.resilience;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.limiter.core.StoreMode;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real master, its replica and a Sentinel; the master is killed with SIGKILL and
 * Sentinel promotes the replica: the application, configured with nothing but
 * {@code spring.data.redis.sentinel.*}, follows it.
 */
@UsesRedisServer
class SentinelFailoverTests {

	private static final String MASTER_NAME = "limiter-master";

	private static final Duration HEALED_AFTER_PROMOTION = Duration.ofSeconds(10);

	@Test
	void limiterWhenTheMasterIsKilledShouldHealSoonAfterPromotionWithoutRestartOrServerErrors() throws Exception {
		try (RedisServerProcess master = RedisServerProcess.start();
				RedisServerProcess replica = RedisServerProcess.start(List.of());
				RedisServerProcess sentinel = startSentinel(master, replica)) {
			try (FailoverTraffic traffic = new FailoverTraffic("spring.data.redis.sentinel.master=" + MASTER_NAME,
					"spring.data.redis.sentinel.nodes=" + sentinel.address())) {
				traffic.awaitAuthoritative(30);
				FailOpenRateLimitStore store = traffic.app().getBean(FailOpenRateLimitStore.class);

				master.crash();
				long killedAt = System.nanoTime();
				AtomicLong promotedAt = new AtomicLong(-1);
				traffic.run(60, 50, () -> {
					if (promotedAt.get() < 0 && sentinelNames(sentinel, replica)) {
						promotedAt.set(System.nanoTime());
					}
				}, () -> promotedAt.get() > 0 && traffic.lastAuthoritative(20));

				assertThat(promotedAt.get()).as("Sentinel promoted the replica").isPositive();
				System.out.printf(
						"SentinelFailoverTests: promoted %d ms after SIGKILL, authoritative %d ms after "
								+ "promotion%n",
						Duration.ofNanos(promotedAt.get() - killedAt).toMillis(),
						Duration.ofNanos(traffic.healedAt() - promotedAt.get()).toMillis());
				assertThat(traffic.answers).as("no request failed")
					.allSatisfy(a -> assertThat(a.status()).isLessThan(500));
				assertThat(traffic.degradedShape())
					.as("authoritative, degraded while the master is gone, authoritative again")
					.matches("0*1+0{20}");
				assertThat(Duration.ofNanos(traffic.healedAt() - promotedAt.get())).as("healed after promotion")
					.isLessThanOrEqualTo(HEALED_AFTER_PROMOTION);
				assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
			}
		}
	}

	private static RedisServerProcess startSentinel(RedisServerProcess master, RedisServerProcess replica) {
		replica.call("REPLICAOF", "127.0.0.1", master.port());
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!"up".equals(replica.info("replication").get("master_link_status"))) {
			assertThat(System.nanoTime()).as("replica in sync").isLessThan(deadline);
			sleep(50);
		}
		RedisServerProcess sentinel = RedisServerProcess.startSentinel(MASTER_NAME, master.port());
		// Sentinel learns of the replica from the master's INFO; without it there is
		// nobody to promote
		while (((List<?>) sentinel.call("SENTINEL", "REPLICAS", MASTER_NAME)).isEmpty()) {
			assertThat(System.nanoTime()).as("Sentinel knows the replica").isLessThan(deadline);
			sleep(100);
		}
		return sentinel;
	}

	private static boolean sentinelNames(RedisServerProcess sentinel, RedisServerProcess replica) {
		List<?> address = (List<?>) sentinel.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
		return String.valueOf(replica.port()).equals(String.valueOf(address.get(1)))
				&& "master".equals(replica.info("replication").get("role"));
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

}
