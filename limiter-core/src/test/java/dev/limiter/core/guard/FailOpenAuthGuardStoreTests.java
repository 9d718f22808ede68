package dev.limiter.core.guard;

import dev.limiter.core.contract.DownAuthGuardStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reservation the fallback took while the authoritative guard store failed is settled
 * by the fallback, whatever the authoritative store does by then.
 */
class FailOpenAuthGuardStoreTests {

	private static final long T0 = 1_000_000L;

	private final DownAuthGuardStore unreachable = new DownAuthGuardStore();

	private final FailOpenAuthGuardStore store = new FailOpenAuthGuardStore(unreachable, AuthGuardPolicy.defaults(),
			1000);

	@Test
	void failWhenReservedByFallbackShouldCountItThereAndHandTheReservationBack() {
		AuthGuardStore.Reservation reservation = store.reserve("addr:1", T0);

		store.fail("addr:1", reservation.lease(), T0 + 1);

		assertThat(reservation.degraded()).isTrue();
		assertThat(store.state("addr:1", T0 + 2)).isEqualTo(new GuardState(1, 0, 0));
		assertThat(unreachable.calls()).doesNotContain("fail", "release");
	}

	@Test
	void releaseWhenReservedByFallbackShouldHandItBackToTheFallback() {
		AuthGuardStore.Reservation reservation = store.reserve("addr:1", T0);

		store.release(reservation.lease(), T0 + 1);

		assertThat(store.state("addr:1", T0 + 2)).isEqualTo(new GuardState(0, 0, 0));
		assertThat(unreachable.calls()).doesNotContain("release");
	}

}
