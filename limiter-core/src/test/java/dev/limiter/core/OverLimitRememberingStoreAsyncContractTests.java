package dev.limiter.core;

import dev.limiter.core.contract.AsyncCalls;
import dev.limiter.core.contract.RateLimitStoreContractTests;

/**
 * The store contract through the over-limit memory's {@code takeAsync} (a remembered
 * refusal answered at once, anything else the store's stage, learnt from when it
 * completes): the same results as {@code take}.
 */
class OverLimitRememberingStoreAsyncContractTests extends RateLimitStoreContractTests {

	@Override
	protected RateLimitStore createStore() {
		return new OverLimitRememberingStore(RateLimitStores.inMemory(100_000));
	}

	@Override
	protected AsyncCalls asyncCalls() {
		return AsyncCalls.onTheTestThread();
	}

}
