package dev.limiter.core;

import dev.limiter.core.contract.ReserveSettleContractTests;

/**
 * Reserve and settle through the local over-limit memory: a budget with units passes
 * through it, so a refusal a settlement has lifted is never remembered.
 */
class OverLimitRememberingStoreReserveSettleTests extends ReserveSettleContractTests {

	@Override
	protected RateLimitStore createStore() {
		return new OverLimitRememberingStore(RateLimitStores.inMemory(1_000));
	}

}
