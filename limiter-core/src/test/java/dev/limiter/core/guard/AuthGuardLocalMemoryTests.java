package dev.limiter.core.guard;

import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.Test;

import static dev.limiter.core.guard.GuardAdmission.Outcome.ADMITTED;
import static dev.limiter.core.guard.GuardAdmission.Outcome.BLOCKED;
import static org.assertj.core.api.Assertions.assertThat;

/** What the guard remembers locally, and that it then costs the store no call. */
class AuthGuardLocalMemoryTests {

	private static final long T = 1_700_000_000_123L;

	private final CountingStore store = new CountingStore(new InMemoryRateLimitStore(10_000));

	private final AuthGuard guard = new AuthGuard(store, AuthGuardPolicy.defaults());

	private final String address = AuthGuard.addressKey("203.0.113.7");

	private final String good = AuthGuard.credentialKey("Bearer sp_good");

	@Test
	void admitWhenTheCredentialAuthenticatedHereShouldTakeNoReservationAndCallNoStore() {
		guard.succeeded(guard.admit(address, good, T), T);
		int callsBefore = store.calls.get();

		GuardAdmission again = guard.admit(address, good, T + 1);
		guard.succeeded(again, T + 2);

		assertThat(again.outcome()).isEqualTo(ADMITTED);
		assertThat(again.reservation()).isNull();
		assertThat(store.calls.get()).isEqualTo(callsBefore);
	}

	@Test
	void admitWhenTheRememberedCredentialLapsedShouldReserveAgain() {
		guard.succeeded(guard.admit(address, good, T), T);

		GuardAdmission later = guard.admit(address, good,
				T + AuthGuardPolicy.DEFAULT_REMEMBER_AUTHENTICATED.toMillis());

		assertThat(later.reservation()).isNotNull();
	}

	@Test
	void admitWhenTheAddressIsKnownBlockedShouldRefuseEvenARememberedCredentialWithoutAStoreCall() {
		guard.succeeded(guard.admit(address, good, T), T);
		for (int i = 0; i < 50; i++) {
			guard.failed(guard.admit(address, AuthGuard.credentialKey("Bearer bad" + i), T), T);
		}
		int callsBefore = store.calls.get();

		GuardAdmission refused = guard.admit(address, good, T + 10);

		assertThat(refused.outcome()).isEqualTo(BLOCKED);
		assertThat(refused.retryAfterMillis()).isEqualTo(AuthGuardPolicy.DEFAULT_BLOCK.toMillis() - 10);
		assertThat(store.calls.get()).isEqualTo(callsBefore);
	}

	@Test
	void succeededWhenCredentialIsRememberedShouldClearTheFailuresCountedHere() {
		guard.succeeded(guard.admit(address, good, T), T);
		for (int i = 0; i < 49; i++) {
			guard.failed(guard.admit(address, AuthGuard.credentialKey("Bearer bad" + i), T), T);
		}

		guard.succeeded(guard.admit(address, good, T + 1), T + 1);

		assertThat(guard.state(address, T + 1).failures()).isZero();
	}

	@Test
	void failedWhenCredentialIsRememberedShouldForgetItAndCountAFailure() {
		guard.succeeded(guard.admit(address, good, T), T);

		guard.failed(guard.admit(address, good, T + 1), T + 1);

		assertThat(guard.state(address, T + 1).failures()).isEqualTo(1);
		assertThat(guard.admit(address, good, T + 2).reservation()).isNotNull();
	}

	@Test
	void admitWhenRememberingIsOffShouldAlwaysReserve() {
		AuthGuard forgetful = new AuthGuard(store, new AuthGuardPolicy(50, AuthGuardPolicy.DEFAULT_WINDOW,
				AuthGuardPolicy.DEFAULT_BLOCK, 50, AuthGuardPolicy.DEFAULT_LOOKUP_LEASE, java.time.Duration.ZERO));
		forgetful.succeeded(forgetful.admit(address, good, T), T);

		assertThat(forgetful.admit(address, good, T + 1).reservation()).isNotNull();
	}

	/** Counts every call that reaches the store. */
	private static final class CountingStore implements RateLimitStore {

		private final RateLimitStore store;

		private final AtomicInteger calls = new AtomicInteger();

		CountingStore(RateLimitStore store) {
			this.store = store;
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			calls.incrementAndGet();
			return store.take(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public void release(Lease lease, long nowMillis) {
			calls.incrementAndGet();
			store.release(lease, nowMillis);
		}

		@Override
		public KeyState peek(Budget budget, String key, long nowMillis) {
			calls.incrementAndGet();
			return store.peek(budget, key, nowMillis);
		}

		@Override
		public void reset(Budget budget, String key) {
			calls.incrementAndGet();
			store.reset(budget, key);
		}

		@Override
		public String name() {
			return store.name();
		}

	}

}
