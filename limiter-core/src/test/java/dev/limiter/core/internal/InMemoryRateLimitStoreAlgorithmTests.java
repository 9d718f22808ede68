package dev.limiter.core.internal;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.WindowAlgorithmContractTests;

/** The algorithms' contract, unchanged, on the in-memory store. */
class InMemoryRateLimitStoreAlgorithmTests extends WindowAlgorithmContractTests {

	@Override
	protected RateLimitStore createStore() {
		return new InMemoryRateLimitStore(1_000);
	}

}
