package dev.limiter.resilience;

import java.time.Duration;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.StoreBackedAuthGuardStore;
import dev.limiter.core.internal.InMemoryRateLimitStore;
import dev.limiter.resilience.FailOpenRateLimitStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard on a store that fails open: a block the fallback started says it was decided
 * without the authoritative store.
 */
class StoreBackedAuthGuardStoreDegradedTests {

	private static final long T0 = 1_000_000L;

	private final AuthGuardPolicy policy = new AuthGuardPolicy(1, Duration.ofMinutes(15), Duration.ofMinutes(30), 50,
			Duration.ofSeconds(30));

	private final StoreBackedAuthGuardStore store = new StoreBackedAuthGuardStore(
			new FailOpenRateLimitStore(new UnreachableStore(), 1000, (budget) -> false, 1000, StoreModeListener.NONE),
			policy);

	@Test
	void reserveWhenFallbackStartedTheBlockShouldBeDegraded() {
		AuthGuardStore.Reservation first = store.reserve("addr:1", T0);
		store.fail("addr:1", first.lease(), T0 + 1);

		AuthGuardStore.Reservation blocked = store.reserve("addr:1", T0 + 2);

		assertThat(blocked.outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(blocked.degraded()).isTrue();
	}

	/** Fails every call that needs the store to answer. */
	private static final class UnreachableStore extends ForwardingRateLimitStore {

		private final RateLimitStore names = new InMemoryRateLimitStore(10);

		@Override
		protected RateLimitStore delegate() {
			return names;
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			throw new RateLimitStoreException("unreachable");
		}

		@Override
		public KeyState peek(Budget budget, String key, long nowMillis) {
			throw new RateLimitStoreException("unreachable");
		}

		@Override
		public void reset(Budget budget, String key) {
			throw new RateLimitStoreException("unreachable");
		}

	}

}
