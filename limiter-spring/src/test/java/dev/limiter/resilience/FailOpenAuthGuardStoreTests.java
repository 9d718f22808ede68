package dev.limiter.resilience;

import dev.limiter.core.contract.DownAuthGuardStore;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardState;
import dev.limiter.core.guard.PendingReservation;
import org.junit.jupiter.api.Test;

import static dev.limiter.core.guard.GuardAdmission.Outcome.ADMITTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reservation the fallback took while the authoritative guard store failed is settled
 * by the fallback, whatever the authoritative store does by then.
 */
class FailOpenAuthGuardStoreTests {

	private static final long T0 = 1_000_000L;

	private static final long T = 1_700_000_000_123L;

	private final String address = AuthGuard.addressKey("203.0.113.7");

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

	@Test
	void reservationWhenItFailsOnArrivalShouldBeAnsweredByTheFallback() {
		FailOpenAuthGuardStore failOpen = new FailOpenAuthGuardStore(new DownAuthGuardStore(),
				AuthGuardPolicy.defaults(), 100);

		PendingReservation pending = failOpen.reserveAsync(address, T);

		AuthGuardStore.Reservation reservation = pending.await();
		assertThat(reservation.outcome()).isEqualTo(ADMITTED);
		assertThat(reservation.degraded()).isTrue();
		assertThat(failOpen.state(address, T).pending()).isEqualTo(1);
	}

	@Test
	void failureWhenTheAuthoritativeStoreFailsLaterShouldBeCountedByTheFallback() {
		FailOpenAuthGuardStore failOpen = new FailOpenAuthGuardStore(new DownAuthGuardStore(),
				AuthGuardPolicy.defaults(), 100);

		AuthGuardStore.Failure failure = failOpen.failAsync(address, null, T).toCompletableFuture().join();

		assertThat(failure.reachedThreshold()).isFalse();
		assertThat(failOpen.state(address, T).failures()).isEqualTo(1);
	}

}
