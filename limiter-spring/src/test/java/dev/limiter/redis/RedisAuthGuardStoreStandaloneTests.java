package dev.limiter.redis;

import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.AuthGuardStoreContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The guard's contract, unchanged, on {@code guard.lua} in a real standalone Redis. */
@UsesRedisServer
class RedisAuthGuardStoreStandaloneTests extends AuthGuardStoreContractTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

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
	void blockWhenStartedShouldExpireInRedisNoSoonerThanItEnds() {
		for (int i = 0; i < 3; i++) {
			store.fail(address, store.reserve(address, T0).lease(), T0);
		}

		long ttl = (Long) redis.server().call("PTTL", new RedisKeys("limiter").guard(address).get(2));

		assertThat(ttl).isGreaterThan(POLICY.block().toMillis() - 1_000);
	}

}
