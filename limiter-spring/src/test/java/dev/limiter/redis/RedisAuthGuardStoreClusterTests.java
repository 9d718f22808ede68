package dev.limiter.redis;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.AuthGuardStoreContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard's contract, unchanged, on {@code guard.lua} in a real three-master Redis
 * Cluster.
 */
@UsesRedisServer
class RedisAuthGuardStoreClusterTests extends AuthGuardStoreContractTests {

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
	protected AuthGuardStore createStore(AuthGuardPolicy policy) {
		return RedisRateLimitStore.builder(redis.classConnectionFactory(client()))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build()
			.authGuardStore(policy);
	}

	@Test
	void guardKeysWhenOfOneAddressShouldShareOneSlot() {
		List<String> names = new RedisKeys("limiter").guard(address);
		Set<Long> slots = new HashSet<>();
		for (String name : names) {
			slots.add((Long) redis.cluster().nodes().get(0).call("CLUSTER", "KEYSLOT", name));
		}

		assertThat(slots).hasSize(1);
	}

}
