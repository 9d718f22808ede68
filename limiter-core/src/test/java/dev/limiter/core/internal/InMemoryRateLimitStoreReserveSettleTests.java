package dev.limiter.core.internal;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.ReserveSettleContractTests;

/** Reserve and settle on the in-memory store. */
class InMemoryRateLimitStoreReserveSettleTests extends ReserveSettleContractTests {

	@Override
	protected RateLimitStore createStore() {
		return new InMemoryRateLimitStore(1_000);
	}

}
