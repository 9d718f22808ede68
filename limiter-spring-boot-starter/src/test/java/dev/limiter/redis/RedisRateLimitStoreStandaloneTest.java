package dev.limiter.redis;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.RateLimitStoreContractTest;
import dev.limiter.test.redis.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The store contract (ADR 0001, {@code RateLimitStoreContractTest}), unchanged, on a real standalone Redis. */
class RedisRateLimitStoreStandaloneTest extends RateLimitStoreContractTest {

    @RegisterExtension
    static RedisServerExtension redis = RedisServerExtension.shared();

    private static RedisConnectionFactory connectionFactory;

    @Override
    protected RateLimitStore createStore() {
        synchronized (RedisRateLimitStoreStandaloneTest.class) {
            if (connectionFactory == null) {
                connectionFactory = redis.connectionFactory();
            }
        }
        return RedisRateLimitStore.builder(connectionFactory).timeout(RedisTestTimeouts.GENEROUS).build();
    }
}
