package dev.limiter.resilience;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.contract.DownRateLimitStore;
import dev.limiter.core.contract.WindowAlgorithmContractTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The algorithms' contract, unchanged, answered by the degraded fallback while the store
 * is down: the fallback counts with the same arithmetic as every store, and says so on
 * every answer.
 */
class FailOpenRateLimitStoreAlgorithmTests extends WindowAlgorithmContractTests {

	@Override
	protected RateLimitStore createStore() {
		RateLimitStore failOpen = new FailOpenRateLimitStore(new DownRateLimitStore("redis"), 1_000, (b) -> false,
				5_000, StoreModeListener.NONE);
		return new DegradedOnly(failOpen);
	}

	/** Passes every call through and checks that each answer came from the fallback. */
	private record DegradedOnly(RateLimitStore store) implements RateLimitStore {

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			Decision decision = store.take(budget, key, cost, expensive, nowMillis);
			assertThat(decision.degraded()).as("decided by the fallback").isTrue();
			return decision;
		}

		@Override
		public void release(Lease lease, long nowMillis) {
			store.release(lease, nowMillis);
		}

		@Override
		public KeyState peek(Budget budget, String key, long nowMillis) {
			KeyState state = store.peek(budget, key, nowMillis);
			assertThat(state.degraded()).as("read from the fallback").isTrue();
			return state;
		}

		@Override
		public void reset(Budget budget, String key) {
			// The fallback forgets the key first, then the down store's failure is
			// rethrown: what the contract's reset test needs is the fallback's part.
			assertThatExceptionOfType(RateLimitStoreException.class).isThrownBy(() -> store.reset(budget, key));
		}

		@Override
		public String name() {
			return store.name();
		}

	}

}
