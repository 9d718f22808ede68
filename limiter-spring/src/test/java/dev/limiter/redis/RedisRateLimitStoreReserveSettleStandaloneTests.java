package dev.limiter.redis;

import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.ReserveSettleContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reserve and settle ({@code take.lua} with an amount per window, {@code settle.lua}) on
 * a real standalone Redis, behind the local over-limit memory as the auto-configuration
 * wires it.
 */
@UsesRedisServer
class RedisRateLimitStoreReserveSettleStandaloneTests extends ReserveSettleContractTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	/** The client the store talks through; the Jedis subclass runs the same tests. */
	protected RedisClientKind client() {
		return RedisClientKind.LETTUCE;
	}

	@Override
	protected RateLimitStore createStore() {
		return new OverLimitRememberingStore(RedisRateLimitStore.builder(redis.classConnectionFactory(client()))
			.timeout(RedisTestTimeouts.GENEROUS)
			.build());
	}

}
