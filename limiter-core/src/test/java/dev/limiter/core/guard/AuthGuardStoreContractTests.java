package dev.limiter.core.guard;

import java.time.Duration;
import java.util.UUID;

import dev.limiter.core.Lease;
import dev.limiter.core.contract.AsyncCalls;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard's rules at exact milliseconds. Every {@link AuthGuardStore} extends this
 * class and passes it unchanged: the in-process one through the ordinary store SPI and
 * the Redis one with its own script.
 */
public abstract class AuthGuardStoreContractTests {

	protected static final long T0 = 1_699_999_200_000L;

	/**
	 * Three failures inside a minute block for two minutes; at most five lookups in
	 * flight.
	 */
	protected static final AuthGuardPolicy POLICY = new AuthGuardPolicy(3, Duration.ofMinutes(1), Duration.ofMinutes(2),
			5, Duration.ofSeconds(10), Duration.ZERO);

	/** The hash of a credential that authenticates. */
	protected static final String GOOD = "c0ffee";

	protected AuthGuardStore store;

	protected String address;

	/**
	 * A fresh store applying {@link #POLICY}; it may share a backend, since every test
	 * uses its own address.
	 */
	protected abstract AuthGuardStore createStore(AuthGuardPolicy policy);

	/**
	 * How this run calls the store: {@code null} (the default) through its synchronous
	 * methods; else reservations through {@link PendingReservation#toStage()} and
	 * failures through {@link AuthGuardStore#failAsync}
	 * ({@link AsyncReservingGuardStore}), each answer read this way, with the same
	 * results.
	 */
	protected AsyncCalls asyncCalls() {
		return null;
	}

	@BeforeEach
	void setUpStore() {
		store = createStore(POLICY);
		if (asyncCalls() != null) {
			store = new AsyncReservingGuardStore(store, asyncCalls());
		}
		address = "addr:" + UUID.randomUUID();
	}

	private Lease admitted(long now) {
		AuthGuardStore.Reservation reservation = store.reserve(address, now);
		assertThat(reservation.outcome()).as("reservation at %d", now - T0).isEqualTo(GuardAdmission.Outcome.ADMITTED);
		assertThat(reservation.lease()).isNotNull();
		return reservation.lease();
	}

	@Test
	void reserveWhenNothingIsCountedShouldAdmitAndHoldOneLookup() {
		AuthGuardStore.Reservation reservation = store.reserve(address, T0);

		assertThat(reservation.outcome()).isEqualTo(GuardAdmission.Outcome.ADMITTED);
		assertThat(reservation.failuresSeen()).isZero();
		assertThat(store.state(address, T0)).isEqualTo(new GuardState(0, 1, 0));
	}

	@Test
	void failWhenItReachesTheThresholdShouldBlockForExactlyTheBlock() {
		store.fail(address, admitted(T0), T0);
		store.fail(address, admitted(T0 + 1), T0 + 1);

		AuthGuardStore.Failure third = store.fail(address, admitted(T0 + 2), T0 + 2);

		assertThat(third.reachedThreshold()).isTrue();
		assertThat(third.blockedUntilMillis()).isEqualTo(T0 + 2 + POLICY.block().toMillis());
		AuthGuardStore.Reservation lastMillisecond = store.reserve(address, T0 + 2 + POLICY.block().toMillis() - 1);
		assertThat(lastMillisecond.outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(lastMillisecond.blockedUntilMillis()).isEqualTo(T0 + 2 + POLICY.block().toMillis());
		assertThat(store.reserve(address, T0 + 2 + POLICY.block().toMillis()).outcome())
			.as("the first request after the block, counted from zero")
			.isEqualTo(GuardAdmission.Outcome.ADMITTED);
	}

	@Test
	void failWhenBelowTheThresholdShouldCountAndHandTheReservationBack() {
		AuthGuardStore.Failure failure = store.fail(address, admitted(T0), T0);

		assertThat(failure.reachedThreshold()).isFalse();
		assertThat(failure.blockedUntilMillis()).isZero();
		assertThat(store.state(address, T0)).isEqualTo(new GuardState(1, 0, 0));
	}

	@Test
	void reserveWhenFailuresAndLookupsInFlightWouldPassTheThresholdShouldSaturate() {
		store.fail(address, admitted(T0), T0);
		admitted(T0);
		admitted(T0);

		AuthGuardStore.Reservation fourth = store.reserve(address, T0);

		assertThat(fourth.outcome()).isEqualTo(GuardAdmission.Outcome.SATURATED);
		assertThat(store.state(address, T0)).as("a saturated request holds nothing").isEqualTo(new GuardState(1, 2, 0));
	}

	@Test
	void reserveWhenMaxPendingLookupsAreInFlightShouldSaturate() {
		AuthGuardStore wide = createStore(new AuthGuardPolicy(50, Duration.ofMinutes(1), Duration.ofMinutes(2), 2,
				Duration.ofSeconds(10), Duration.ZERO));
		wide.reserve(address, T0);
		wide.reserve(address, T0);

		assertThat(wide.reserve(address, T0).outcome()).isEqualTo(GuardAdmission.Outcome.SATURATED);
	}

	@Test
	void succeedWhenFailuresAndOtherLookupsAreCountedShouldHandBackOnlyItsOwnReservation() {
		store.fail(address, admitted(T0), T0);
		Lease other = admitted(T0);
		Lease good = admitted(T0);

		store.succeed(address, good, GOOD, T0 + 1);

		assertThat(store.state(address, T0 + 1)).isEqualTo(new GuardState(1, 1, 0, 1));
		store.fail(address, other, T0 + 2);
		assertThat(store.state(address, T0 + 2)).isEqualTo(new GuardState(2, 0, 0, 1));
	}

	@Test
	void failuresWhenAGoodCredentialSucceedsBetweenGuessesShouldStillBlockAtTheThreshold() {
		for (int round = 0; round < 3; round++) {
			long now = T0 + round * 10;
			store.fail(address, admitted(now), now);
			if (round < 2) {
				store.succeed(address, admitted(now + 1), GOOD, now + 1);
			}
		}

		AuthGuardStore.Reservation guess = store.reserve(address, "wrong", T0 + 30);
		assertThat(guess.outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(guess.blockedUntilMillis()).isEqualTo(T0 + 20 + POLICY.block().toMillis());
	}

	@Test
	void succeedWhenABlockIsRunningShouldNotLiftIt() {
		for (int i = 0; i < 3; i++) {
			store.fail(address, admitted(T0), T0);
		}

		store.succeed(address, null, GOOD, T0 + 1);

		assertThat(store.reserve(address, T0 + 1).outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(store.state(address, T0 + 1).blockedUntilMillis()).isEqualTo(T0 + POLICY.block().toMillis());
	}

	@Test
	void reserveWhenBlockedShouldAdmitACredentialProvenFromTheAddressWithoutAReservation() {
		store.succeed(address, admitted(T0), GOOD, T0);
		for (int i = 0; i < 3; i++) {
			store.fail(address, admitted(T0 + 1), T0 + 1);
		}

		AuthGuardStore.Reservation proven = store.reserve(address, GOOD, T0 + 2);
		AuthGuardStore.Reservation unknown = store.reserve(address, "wrong", T0 + 2);

		assertThat(proven.outcome()).isEqualTo(GuardAdmission.Outcome.ADMITTED);
		assertThat(proven.lease()).as("a proven credential holds no reservation").isNull();
		assertThat(proven.blockedUntilMillis()).isEqualTo(T0 + 1 + POLICY.block().toMillis());
		assertThat(unknown.outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(unknown.provenCredentials()).isTrue();
		assertThat(store.reserve(address, null, T0 + 2).outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(store.state(address, T0 + 2)).isEqualTo(new GuardState(0, 0, T0 + 1 + POLICY.block().toMillis(), 1));
	}

	@Test
	void reserveWhenBlockedWithoutProvenCredentialsShouldSaySo() {
		for (int i = 0; i < 3; i++) {
			store.fail(address, admitted(T0), T0);
		}

		AuthGuardStore.Reservation unknown = store.reserve(address, "wrong", T0 + 1);

		assertThat(unknown.outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(unknown.provenCredentials()).isFalse();
	}

	@Test
	void provenCredentialWhenProvenFromAnotherAddressShouldNotPassThisBlock() {
		store.succeed(address + "-other", null, GOOD, T0);
		for (int i = 0; i < 3; i++) {
			store.fail(address, admitted(T0), T0);
		}

		assertThat(store.reserve(address, GOOD, T0 + 1).outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
	}

	@Test
	void provenCredentialWhenTheWindowHasPassedSinceItsLastSuccessShouldNoLongerPass() {
		store.succeed(address, null, GOOD, T0);
		store.succeed(address, null, GOOD, T0 + 30_000);
		long end = T0 + 30_000 + POLICY.window().toMillis();
		for (int i = 0; i < 3; i++) {
			store.fail(address, admitted(end - 10), end - 10);
		}

		assertThat(store.reserve(address, GOOD, end - 1).outcome()).isEqualTo(GuardAdmission.Outcome.ADMITTED);
		assertThat(store.reserve(address, GOOD, end).outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(store.state(address, end).proven()).isZero();
	}

	@Test
	void provenCredentialsWhenMoreThanTheBoundShouldDropTheOldest() {
		int bound = AuthGuardPolicy.PROVEN_CREDENTIALS_PER_ADDRESS;
		for (int i = 0; i <= bound; i++) {
			store.succeed(address, null, "credential-" + i, T0 + i);
		}
		for (int i = 0; i < 3; i++) {
			store.fail(address, admitted(T0 + 100), T0 + 100);
		}

		assertThat(store.state(address, T0 + 101).proven()).isEqualTo(bound);
		assertThat(store.reserve(address, "credential-0", T0 + 101).outcome()).as("the oldest proof, dropped")
			.isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(store.reserve(address, "credential-1", T0 + 101).outcome())
			.isEqualTo(GuardAdmission.Outcome.ADMITTED);
		assertThat(store.reserve(address, "credential-" + bound, T0 + 101).outcome())
			.isEqualTo(GuardAdmission.Outcome.ADMITTED);
	}

	@Test
	void unblockWhenABlockRunsShouldLiftItAndCountFromZero() {
		for (int i = 0; i < 3; i++) {
			store.fail(address, admitted(T0), T0);
		}

		assertThat(store.unblock(address, T0 + 1)).isTrue();

		assertThat(store.state(address, T0 + 1)).isEqualTo(new GuardState(0, 0, 0));
		assertThat(store.reserve(address, "wrong", T0 + 1).outcome()).isEqualTo(GuardAdmission.Outcome.ADMITTED);
		assertThat(store.unblock(address + "-other", T0 + 1)).as("nothing to lift").isFalse();
	}

	@Test
	void releaseWhenCalledTwiceShouldHandTheReservationBackOnlyOnce() {
		Lease lease = admitted(T0);

		store.release(lease, T0 + 1);
		store.release(lease, T0 + 1);

		assertThat(store.state(address, T0 + 1)).isEqualTo(new GuardState(0, 0, 0));
	}

	@Test
	void reservationWhenNobodyHandsItBackShouldExpireAfterTheLookupLease() {
		admitted(T0);

		assertThat(store.state(address, T0 + POLICY.lookupLease().toMillis() - 1).pending()).isEqualTo(1);
		assertThat(store.state(address, T0 + POLICY.lookupLease().toMillis()).pending()).isZero();
	}

	@Test
	void failureWhenRecordedShouldCountForTheWindowAfterItHappened() {
		store.fail(address, admitted(T0), T0);
		store.fail(address, admitted(T0 + 30_000), T0 + 30_000);

		assertThat(store.state(address, T0 + 59_999).failures()).isEqualTo(2);
		assertThat(store.state(address, T0 + 60_000).failures()).isEqualTo(1);
		assertThat(store.reserve(address, T0 + 60_000).failuresSeen()).isEqualTo(1);
	}

	@Test
	void reserveWhenCompletedFailuresAlreadyReachTheThresholdShouldStartTheBlock() {
		AuthGuardStore wide = createStore(new AuthGuardPolicy(2, Duration.ofMinutes(1), Duration.ofMinutes(2), 5,
				Duration.ofSeconds(10), Duration.ZERO));
		Lease first = wide.reserve(address, T0).lease();
		Lease second = wide.reserve(address, T0).lease();
		wide.fail(address, first, T0);
		wide.fail(address, second, T0 + 1);

		AuthGuardStore.Reservation after = wide.reserve(address, T0 + 2);

		assertThat(after.outcome()).isEqualTo(GuardAdmission.Outcome.BLOCKED);
		assertThat(after.blockedUntilMillis()).isEqualTo(T0 + 1 + Duration.ofMinutes(2).toMillis());
	}

	@Test
	void addressesWhenDifferentShouldBeCountedApart() {
		for (int i = 0; i < 3; i++) {
			store.fail(address, admitted(T0), T0);
		}

		assertThat(store.reserve(address + "-other", T0 + 1).outcome()).isEqualTo(GuardAdmission.Outcome.ADMITTED);
	}

}
