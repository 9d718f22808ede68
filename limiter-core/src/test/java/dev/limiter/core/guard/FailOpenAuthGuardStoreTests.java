package dev.limiter.core.guard;

import java.util.ArrayList;
import java.util.List;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reservation the fallback took while the authoritative guard store failed is settled
 * by the fallback, whatever the authoritative store does by then.
 */
class FailOpenAuthGuardStoreTests {

	private static final long T0 = 1_000_000L;

	private final UnreachableGuardStore unreachable = new UnreachableGuardStore();

	private final FailOpenAuthGuardStore store = new FailOpenAuthGuardStore(unreachable, AuthGuardPolicy.defaults(),
			1000);

	@Test
	void failWhenReservedByFallbackShouldCountItThereAndHandTheReservationBack() {
		AuthGuardStore.Reservation reservation = store.reserve("addr:1", T0);

		store.fail("addr:1", reservation.lease(), T0 + 1);

		assertThat(reservation.degraded()).isTrue();
		assertThat(store.state("addr:1", T0 + 2)).isEqualTo(new GuardState(1, 0, 0));
		assertThat(unreachable.calls).doesNotContain("fail", "release");
	}

	@Test
	void releaseWhenReservedByFallbackShouldHandItBackToTheFallback() {
		AuthGuardStore.Reservation reservation = store.reserve("addr:1", T0);

		store.release(reservation.lease(), T0 + 1);

		assertThat(store.state("addr:1", T0 + 2)).isEqualTo(new GuardState(0, 0, 0));
		assertThat(unreachable.calls).doesNotContain("release");
	}

	/** A guard store that cannot answer, and says which calls reached it. */
	private static final class UnreachableGuardStore implements AuthGuardStore {

		private final List<String> calls = new ArrayList<>();

		@Override
		public Reservation reserve(String addressKey, long nowMillis) {
			calls.add("reserve");
			throw new RateLimitStoreException("unreachable");
		}

		@Override
		public Failure fail(String addressKey, Lease reservation, long nowMillis) {
			calls.add("fail");
			throw new RateLimitStoreException("unreachable");
		}

		@Override
		public void succeed(String addressKey, Lease reservation, boolean clearFailures, long nowMillis) {
			calls.add("succeed");
		}

		@Override
		public void release(Lease reservation, long nowMillis) {
			calls.add("release");
		}

		@Override
		public GuardState state(String addressKey, long nowMillis) {
			calls.add("state");
			throw new RateLimitStoreException("unreachable");
		}

	}

}
