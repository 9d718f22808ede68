package dev.limiter.core.guard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Lease;
import dev.limiter.core.contract.DownRateLimitStore;
import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.Test;

import static dev.limiter.core.guard.GuardAdmission.Outcome.ADMITTED;
import static dev.limiter.core.guard.GuardAdmission.Outcome.BLOCKED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AuthGuard#begin}: which lookups may run while their reservation travels, and
 * what the guard learns from answers it did not wait for.
 */
class AuthGuardPendingAdmissionTests {

	private static final long T = 1_700_000_000_123L;

	private final TravellingGuardStore store = new TravellingGuardStore(
			new StoreBackedAuthGuardStore(new InMemoryRateLimitStore(10_000), AuthGuardPolicy.defaults()));

	private final AuthGuard guard = new AuthGuard(store, AuthGuardPolicy.defaults());

	private final String address = AuthGuard.addressKey("203.0.113.7");

	@Test
	void beginWhenTheAddressIsNewShouldLetTheLookupRunBeforeTheAnswer() {
		PendingAdmission pending = guard.begin(address, "credential", T);

		assertThat(pending.isDone()).isFalse();
		assertThat(store.answered).hasValue(0);
		assertThat(pending.await().outcome()).isEqualTo(ADMITTED);
		assertThat(pending.await().reservationLease()).isPresent();
		assertThat(store.answered).hasValue(1);
	}

	@Test
	void beginWhenMaxPendingLookupsOfTheAddressAreAheadShouldWaitForTheAnswer() {
		AuthGuardPolicy twoAtOnce = new AuthGuardPolicy(50, Duration.ofMinutes(15), Duration.ofMinutes(30), 2,
				Duration.ofSeconds(30));
		AuthGuard guard = new AuthGuard(
				new TravellingGuardStore(new StoreBackedAuthGuardStore(new InMemoryRateLimitStore(10_000), twoAtOnce)),
				twoAtOnce);
		PendingAdmission first = guard.begin(address, "first", T);
		PendingAdmission second = guard.begin(address, "second", T);

		PendingAdmission third = guard.begin(address, "third", T);

		assertThat(first.isDone()).isFalse();
		assertThat(second.isDone()).isFalse();
		assertThat(third.isDone()).isTrue();
		assertThat(third.await().outcome()).isEqualTo(ADMITTED);
		assertThat(guard.begin(AuthGuard.addressKey("198.51.100.1"), "elsewhere", T).isDone())
			.as("another address has its own lookups ahead")
			.isFalse();
	}

	@Test
	void beginWhenTheLookupsAheadWereAnsweredShouldLetTheNextOnesRunAhead() {
		List<PendingAdmission> ahead = new ArrayList<>();
		for (int i = 0; i < AuthGuardPolicy.defaults().maxPending(); i++) {
			ahead.add(guard.begin(address, "ahead-" + i, T));
		}
		assertThat(ahead).noneMatch(PendingAdmission::isDone);
		assertThat(guard.begin(address, "one too many", T).isDone()).isTrue();

		ahead.forEach(PendingAdmission::await);

		assertThat(guard.begin(address, "next", T).isDone()).isFalse();
	}

	@Test
	void beginWhenTheAddressFailedHereShouldWaitForTheAnswer() {
		guard.failed(guard.begin(address, "wrong", T).await(), T);

		assertThat(guard.begin(address, "another", T + 1).isDone()).isTrue();
	}

	@Test
	void beginWhenASuccessWasAdmittedAfterTheAddressFailedHereShouldLetTheLookupRunAheadAgain() {
		guard.failed(guard.begin(address, "wrong", T).await(), T);
		guard.succeeded(guard.begin(address, "right", T + 1).await(), T + 1);

		PendingAdmission next = guard.begin(address, "first-seen", T + 2);

		assertThat(next.isDone()).as("the lookup runs while its reservation travels").isFalse();
		assertThat(next.await().outcome()).isEqualTo(ADMITTED);
		assertThat(guard.state(address, T + 2).failures()).as("the failure stays counted in the store").isEqualTo(1);
	}

	@Test
	void failureWhenNotWaitedForShouldStillStartAndRememberTheBlock() {
		for (int i = 0; i < 49; i++) {
			guard.failed(guard.admit(address, T), T);
		}
		GuardAdmission fiftieth = guard.admit(address, T);

		boolean reachedThreshold = guard.failedWithoutWaiting(fiftieth, T).toCompletableFuture().join();

		assertThat(reachedThreshold).isTrue();
		int answeredBefore = store.answered.get();
		PendingAdmission next = guard.begin(address, "credential", T + 1);
		assertThat(next.isDone()).isTrue();
		assertThat(next.await().outcome()).isEqualTo(BLOCKED);
		assertThat(store.answered).as("the block is known here: no store call").hasValue(answeredBefore);
	}

	@Test
	void failureWhenNoStoreCanCountItShouldCompleteWithoutABlock() {
		AuthGuard overBrokenStore = new AuthGuard(new DownRateLimitStore("broken"), AuthGuardPolicy.defaults());
		GuardAdmission admission = overBrokenStore.admit(address, T);

		assertThat(overBrokenStore.failedWithoutWaiting(admission, T).toCompletableFuture().join()).isFalse();
	}

	/**
	 * A guard store whose reservations are answered only when read, like a remote store's
	 * reply arriving later.
	 */
	private static final class TravellingGuardStore implements AuthGuardStore {

		private final AuthGuardStore delegate;

		private final AtomicInteger answered = new AtomicInteger();

		TravellingGuardStore(AuthGuardStore delegate) {
			this.delegate = delegate;
		}

		@Override
		public Reservation reserve(String addressKey, String credentialKey, long nowMillis) {
			answered.incrementAndGet();
			return delegate.reserve(addressKey, credentialKey, nowMillis);
		}

		@Override
		public PendingReservation reserveAsync(String addressKey, String credentialKey, long nowMillis) {
			return () -> reserve(addressKey, credentialKey, nowMillis);
		}

		@Override
		public Failure fail(String addressKey, Lease reservation, long nowMillis) {
			return delegate.fail(addressKey, reservation, nowMillis);
		}

		@Override
		public void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis) {
			delegate.succeed(addressKey, reservation, credentialKey, nowMillis);
		}

		@Override
		public boolean unblock(String addressKey, long nowMillis) {
			return delegate.unblock(addressKey, nowMillis);
		}

		@Override
		public void release(Lease reservation, long nowMillis) {
			delegate.release(reservation, nowMillis);
		}

		@Override
		public GuardState state(String addressKey, long nowMillis) {
			return delegate.state(addressKey, nowMillis);
		}

	}

}
