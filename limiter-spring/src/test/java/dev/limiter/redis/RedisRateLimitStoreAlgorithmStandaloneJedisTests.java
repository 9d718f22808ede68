package dev.limiter.redis;

import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.WindowAlgorithmContractTests;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The algorithms' contract on a real standalone Redis through Jedis instead of Lettuce,
 * behind the local over-limit memory as the auto-configuration wires it.
 */
class RedisRateLimitStoreAlgorithmStandaloneJedisTests extends WindowAlgorithmContractTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared(RedisClientKind.JEDIS);

	@Override
	protected RateLimitStore createStore() {
		return new OverLimitRememberingStore(RedisRateLimitStore.builder(redis.classConnectionFactory())
			.timeout(RedisTestTimeouts.GENEROUS)
			.build());
	}

}
