package dev.limiter.redis;

import java.util.HashSet;
import java.util.Set;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.RateLimitStoreContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store contract (ADR 0001, {@code RateLimitStoreContractTests}), unchanged, on a
 * real three-master Redis Cluster: the script alone, with no local memory.
 */
@UsesRedisServer
class RedisRateLimitStoreClusterTests extends RateLimitStoreContractTests {

	@RegisterExtension
	static RedisClusterExtension redis = RedisClusterExtension.shared();

	/**
	 * The client the store talks through; the Jedis subclass runs the same tests on
	 * Jedis.
	 */
	protected RedisClientKind client() {
		return RedisClientKind.LETTUCE;
	}

	@Override
	protected RateLimitStore createStore() {
		return RedisRateLimitStore.builder(redis.classConnectionFactory(client()))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();
	}

	@Test
	void keysWhenCallersDifferShouldSpreadOverEveryMasterWhileEachCallerStaysInOneSlot() {
		Set<Integer> ports = new HashSet<>();
		for (int i = 0; i < 30; i++) {
			String caller = key + "-" + i;
			store.take(STANDARD, caller, 1, true, T0);
			var keyNames = new RedisKeys("limiter").all(STANDARD, caller);
			Set<Long> slots = new HashSet<>();
			for (String name : keyNames) {
				slots.add((Long) redis.cluster().nodes().get(0).call("CLUSTER", "KEYSLOT", name));
			}
			assertThat(slots).as("slots of %s", keyNames).hasSize(1);
			var node = redis.cluster().nodeFor(keyNames.get(0));
			assertThat(node.call("EXISTS", keyNames.get(0))).isEqualTo(1L);
			ports.add(node.port());
		}

		assertThat(ports).as("masters that hold counters").hasSize(3);
	}

}
