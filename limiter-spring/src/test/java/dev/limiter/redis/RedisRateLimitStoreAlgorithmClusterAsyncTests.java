package dev.limiter.redis;

import dev.limiter.core.contract.AsyncCalls;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.reactive.NonBlockingThreads;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The algorithms' contract on a real Redis Cluster, every call made through the
 * asynchronous methods from a non-blocking thread under BlockHound: the same results as
 * the synchronous calls, and not one blocking call on the way (Lettuce's shared
 * connection).
 */
@ExtendWith(BlockHoundExtension.class)
class RedisRateLimitStoreAlgorithmClusterAsyncTests extends RedisRateLimitStoreAlgorithmClusterTests {

	@Override
	protected AsyncCalls asyncCalls() {
		return NonBlockingThreads::call;
	}

}
