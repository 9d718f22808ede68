package dev.limiter.core.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.Test;

import static dev.limiter.core.guard.GuardAdmission.Outcome.ADMITTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AuthGuard#beginWithoutWaiting} and {@link PendingAdmission#toStage()}: the
 * guard's protocol for a caller that must not wait (a reactive request on an event loop).
 * Its store's answers arrive when the test says so, and reading one by waiting
 * ({@link PendingReservation#await()}) fails the test: nothing here may wait.
 */
class AuthGuardWithoutWaitingTests {

	private static final long T = 1_700_000_000_123L;

	private final LaterGuardStore store = new LaterGuardStore(
			new StoreBackedAuthGuardStore(new InMemoryRateLimitStore(10_000), AuthGuardPolicy.defaults()));

	private final AuthGuard guard = new AuthGuard(store, AuthGuardPolicy.defaults());

	private final String address = AuthGuard.addressKey("203.0.113.7");

	@Test
	void toStageWhenTheReservationIsOnItsWayShouldCompleteOnceItArrives() {
		PendingAdmission pending = guard.beginWithoutWaiting(address, "credential", T);
		CompletableFuture<GuardAdmission> admission = pending.toStage().toCompletableFuture();

		assertThat(pending.lookupWaits()).as("the lookup may run while it travels").isFalse();
		assertThat(admission).isNotDone();
		store.arrive();

		assertThat(admission).isCompleted();
		assertThat(admission.join().outcome()).isEqualTo(ADMITTED);
		assertThat(admission.join().reservation()).isNotNull();
		assertThat(pending.isDone()).isTrue();
		assertThat(pending.await()).as("read once, either way").isSameAs(admission.join());
	}

	@Test
	void beginWithoutWaitingWhenTheAddressFailedHereShouldReturnAtOnceAndSayTheLookupWaits() {
		PendingAdmission wrong = guard.beginWithoutWaiting(address, "wrong", T);
		CompletionStage<GuardAdmission> wrongAdmission = wrong.toStage();
		store.arrive();
		guard.failed(wrongAdmission.toCompletableFuture().join(), T);

		PendingAdmission next = guard.beginWithoutWaiting(address, "next", T);

		assertThat(next.isDone()).as("returned before the answer, where begin would wait").isFalse();
		assertThat(next.lookupWaits()).isTrue();
		CompletableFuture<GuardAdmission> admission = next.toStage().toCompletableFuture();
		store.arrive();
		assertThat(admission.join().outcome()).isEqualTo(ADMITTED);
		assertThat(next.lookupWaits()).as("answered").isFalse();
	}

	@Test
	void toStageWhenTheStoreCannotAnswerShouldAdmitUnguardedAndDegraded() {
		PendingAdmission pending = guard.beginWithoutWaiting(address, "credential", T);
		CompletableFuture<GuardAdmission> admission = pending.toStage().toCompletableFuture();

		store.failAll(new CompletionException(new RateLimitStoreException("Redis store did not answer within 300ms")));

		assertThat(admission.join().admitted()).isTrue();
		assertThat(admission.join().degraded()).isTrue();
		assertThat(admission.join().reservation()).isNull();
	}

	@Test
	void toStageWhenTheLookupsAheadWereAnsweredShouldLetTheNextOnesRunAhead() {
		List<CompletionStage<GuardAdmission>> ahead = new ArrayList<>();
		for (int i = 0; i < AuthGuardPolicy.defaults().maxPending(); i++) {
			ahead.add(guard.beginWithoutWaiting(address, "ahead-" + i, T).toStage());
		}
		assertThat(guard.beginWithoutWaiting(address, "one too many", T).lookupWaits()).isTrue();

		store.arrive();

		assertThat(ahead).allMatch(stage -> stage.toCompletableFuture().isDone());
		assertThat(guard.beginWithoutWaiting(address, "next", T).lookupWaits()).isFalse();
	}

	/**
	 * A guard store whose reservations are decided at once but answered only when the
	 * test says so; reading one by waiting fails.
	 */
	private static final class LaterGuardStore implements AuthGuardStore {

		private final AuthGuardStore store;

		private final List<Runnable> onTheirWay = new ArrayList<>();

		private final List<CompletableFuture<Reservation>> unanswered = new ArrayList<>();

		LaterGuardStore(AuthGuardStore store) {
			this.store = store;
		}

		void arrive() {
			List<Runnable> arriving = new ArrayList<>(onTheirWay);
			onTheirWay.clear();
			unanswered.clear();
			arriving.forEach(Runnable::run);
		}

		void failAll(RuntimeException failure) {
			List<CompletableFuture<Reservation>> failing = new ArrayList<>(unanswered);
			onTheirWay.clear();
			unanswered.clear();
			failing.forEach(answer -> answer.completeExceptionally(failure));
		}

		@Override
		public Reservation reserve(String addressKey, String credentialKey, long nowMillis) {
			throw new AssertionError("a reservation was waited for");
		}

		@Override
		public PendingReservation reserveAsync(String addressKey, String credentialKey, long nowMillis) {
			Reservation decided = store.reserve(addressKey, credentialKey, nowMillis);
			CompletableFuture<Reservation> answer = new CompletableFuture<>();
			unanswered.add(answer);
			onTheirWay.add(() -> answer.complete(decided));
			return new PendingReservation() {

				@Override
				public Reservation await() {
					throw new AssertionError("a reservation was waited for");
				}

				@Override
				public CompletionStage<Reservation> toStage() {
					return answer;
				}

			};
		}

		@Override
		public Failure fail(String addressKey, Lease reservation, long nowMillis) {
			return store.fail(addressKey, reservation, nowMillis);
		}

		@Override
		public void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis) {
			store.succeed(addressKey, reservation, credentialKey, nowMillis);
		}

		@Override
		public boolean unblock(String addressKey, long nowMillis) {
			return store.unblock(addressKey, nowMillis);
		}

		@Override
		public void release(Lease reservation, long nowMillis) {
			store.release(reservation, nowMillis);
		}

		@Override
		public GuardState state(String addressKey, long nowMillis) {
			return store.state(addressKey, nowMillis);
		}

	}

}
