package dev.limiter.redis;

import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.WindowChangeContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Windows changed under the same budget name on a real standalone Redis, behind the local
 * over-limit memory as the auto-configuration wires it: the fields of the windows' hash
 * are named by the window, so each count follows its name.
 */
@UsesRedisServer
class RedisRateLimitStoreWindowChangeTests extends WindowChangeContractTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	@Override
	protected RateLimitStore createStore() {
		return new OverLimitRememberingStore(
				RedisRateLimitStore.builder(redis.classConnectionFactory(RedisClientKind.LETTUCE))
					.timeout(RedisTestTimeouts.GENEROUS)
					.build());
	}

}
