package dev.limiter.core.internal;

import dev.limiter.core.contract.AsyncCalls;

/**
 * The reserve-and-settle contract on the in-memory store through its asynchronous calls:
 * the same results as the synchronous ones.
 */
class InMemoryRateLimitStoreReserveSettleAsyncTests extends InMemoryRateLimitStoreReserveSettleTests {

	@Override
	protected AsyncCalls asyncCalls() {
		return AsyncCalls.onTheTestThread();
	}

}
