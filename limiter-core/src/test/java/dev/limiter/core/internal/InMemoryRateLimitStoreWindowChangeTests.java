package dev.limiter.core.internal;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.WindowChangeContractTests;

/** Windows changed under the same budget name, on the in-memory store. */
class InMemoryRateLimitStoreWindowChangeTests extends WindowChangeContractTests {

	@Override
	protected RateLimitStore createStore() {
		return new InMemoryRateLimitStore(1_000);
	}

}
