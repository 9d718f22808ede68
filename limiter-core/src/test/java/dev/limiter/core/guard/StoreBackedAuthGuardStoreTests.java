package dev.limiter.core.guard;

import dev.limiter.core.internal.InMemoryRateLimitStore;

/** The guard's contract on the in-process store, through the ordinary store SPI. */
class StoreBackedAuthGuardStoreTests extends AuthGuardStoreContractTests {

	@Override
	protected AuthGuardStore createStore(AuthGuardPolicy policy) {
		return new StoreBackedAuthGuardStore(new InMemoryRateLimitStore(10_000), policy);
	}

}
