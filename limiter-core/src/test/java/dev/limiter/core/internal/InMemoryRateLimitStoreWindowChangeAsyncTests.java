package dev.limiter.core.internal;

import dev.limiter.core.contract.AsyncCalls;

/**
 * The window-change contract on the in-memory store through its asynchronous calls: the
 * same results as the synchronous ones.
 */
class InMemoryRateLimitStoreWindowChangeAsyncTests extends InMemoryRateLimitStoreWindowChangeTests {

	@Override
	protected AsyncCalls asyncCalls() {
		return AsyncCalls.onTheTestThread();
	}

}
