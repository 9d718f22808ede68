package dev.limiter.resilience;

import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * {@link StoreStackNonBlockingTests} on a real three-master Redis Cluster (Lettuce's
 * cluster connection routes each script by its keys' slot).
 */
@UsesRedisServer
class StoreStackNonBlockingClusterTests extends StoreStackNonBlockingTests {

	@RegisterExtension
	static RedisClusterExtension redis = RedisClusterExtension.shared();

	@Override
	protected RedisConnectionFactory connectionFactory() {
		return redis.classConnectionFactory(RedisClientKind.LETTUCE);
	}

}
