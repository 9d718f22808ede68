package dev.limiter.core;

import dev.limiter.core.contract.WindowAlgorithmContractTests;

/**
 * The algorithms' contract, unchanged, through the local over-limit memory: what it
 * answers for a sliding window or a token bucket is what the store would.
 */
class OverLimitRememberingStoreAlgorithmTests extends WindowAlgorithmContractTests {

	@Override
	protected RateLimitStore createStore() {
		return new OverLimitRememberingStore(RateLimitStores.inMemory(1_000));
	}

}
