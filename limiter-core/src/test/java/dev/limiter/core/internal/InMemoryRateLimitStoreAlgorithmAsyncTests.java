package dev.limiter.core.internal;

import dev.limiter.core.contract.AsyncCalls;

/**
 * The algorithms' contract on the in-memory store through its asynchronous calls: the
 * same results as the synchronous ones.
 */
class InMemoryRateLimitStoreAlgorithmAsyncTests extends InMemoryRateLimitStoreAlgorithmTests {

	@Override
	protected AsyncCalls asyncCalls() {
		return AsyncCalls.onTheTestThread();
	}

}
