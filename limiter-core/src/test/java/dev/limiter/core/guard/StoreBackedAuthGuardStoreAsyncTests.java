package dev.limiter.core.guard;

import dev.limiter.core.contract.AsyncCalls;

/**
 * The guard's contract on the in-process guard store, its reservations read through
 * {@link PendingReservation#toStage()}: the same results.
 */
class StoreBackedAuthGuardStoreAsyncTests extends StoreBackedAuthGuardStoreTests {

	@Override
	protected AsyncCalls asyncCalls() {
		return AsyncCalls.onTheTestThread();
	}

}
