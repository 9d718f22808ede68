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
	void admitWhenTheRememberedCredentialLapsedShouldAskTheStoreAgain() {
		guard.succeeded(guard.admit(address, good, T), T);
		int callsBefore = store.calls.get();

		GuardAdmission later = guard.admit(address, good,
				T + AuthGuardPolicy.DEFAULT_REMEMBER_AUTHENTICATED.toMillis());

		assertThat(later.outcome()).isEqualTo(ADMITTED);
		assertThat(store.calls.get()).isGreaterThan(callsBefore);
	}

	@Test
	void admitWhenTheCredentialAuthenticatedHereFromAnotherAddressShouldAskTheStore() {
		guard.succeeded(guard.admit(address, good, T), T);
		int callsBefore = store.calls.get();

		GuardAdmission elsewhere = guard.admit(AuthGuard.addressKey("198.51.100.1"), good, T + 1);

		assertThat(elsewhere.reservation()).isNotNull();
		assertThat(store.calls.get()).isGreaterThan(callsBefore);
	}

	@Test
	void admitWhenTheAddressIsKnownBlockedShouldAdmitACredentialProvenFromItWithoutAStoreCall() {
		guard.succeeded(guard.admit(address, good, T), T);
		for (int i = 0; i < 50; i++) {
			guard.failed(guard.admit(address, AuthGuard.credentialKey("Bearer bad" + i), T), T);
		}
		int callsBefore = store.calls.get();

		GuardAdmission proven = guard.admit(address, good, T + 10);

		assertThat(proven.outcome()).isEqualTo(ADMITTED);
		assertThat(proven.reservation()).isNull();
		assertThat(store.calls.get()).isEqualTo(callsBefore);
		GuardAdmission unknown = guard.admit(address, AuthGuard.credentialKey("Bearer other"), T + 10);
		assertThat(unknown.outcome()).isEqualTo(BLOCKED);
		assertThat(unknown.retryAfterMillis()).isEqualTo(AuthGuardPolicy.DEFAULT_BLOCK.toMillis() - 10);
	}

	@Test
	void admitWhenTheAddressIsKnownBlockedWithoutProvenCredentialsShouldRefuseWithoutAStoreCall() {
		for (int i = 0; i < 50; i++) {
			guard.failed(guard.admit(address, AuthGuard.credentialKey("Bearer bad" + i), T), T);
		}
		int callsBefore = store.calls.get();

		GuardAdmission refused = guard.admit(address, good, T + 10);

		assertThat(refused.outcome()).isEqualTo(BLOCKED);
		assertThat(store.calls.get()).isEqualTo(callsBefore);
	}

	@Test
	void succeededWhenCredentialIsRememberedShouldLeaveTheAddressFailuresCounted() {
		guard.succeeded(guard.admit(address, good, T), T);
		for (int i = 0; i < 49; i++) {
			guard.failed(guard.admit(address, AuthGuard.credentialKey("Bearer bad" + i), T), T);
		}

		guard.succeeded(guard.admit(address, good, T + 1), T + 1);
		guard.failed(guard.admit(address, AuthGuard.credentialKey("Bearer bad-last"), T + 2), T + 2);

		assertThat(guard.state(address, T + 2).blocked()).isTrue();
	}

	@Test
	void unblockWhenTheAddressIsBlockedShouldLiftItHereAndInTheStore() {
		for (int i = 0; i < 50; i++) {
			guard.failed(guard.admit(address, AuthGuard.credentialKey("Bearer bad" + i), T), T);
		}

		assertThat(guard.unblock(address, T + 1)).isTrue();

		assertThat(guard.admit(address, good, T + 1).outcome()).isEqualTo(ADMITTED);
		assertThat(guard.state(address, T + 1).failures()).isZero();
	}

	@Test
	void failedWhenCredentialIsRememberedShouldForgetItAndCountAFailure() {
		guard.succeeded(guard.admit(address, good, T), T);

		guard.failed(guard.admit(address, good, T + 1), T + 1);

		assertThat(guard.state(address, T + 1).failures()).isEqualTo(1);
		int callsBefore = store.calls.get();
		guard.admit(address, good, T + 2);
		assertThat(store.calls.get()).isGreaterThan(callsBefore);
	}

	@Test
	void admitWhenRememberingIsOffShouldAlwaysAskTheStore() {
		AuthGuard forgetful = new AuthGuard(store, new AuthGuardPolicy(50, AuthGuardPolicy.DEFAULT_WINDOW,
				AuthGuardPolicy.DEFAULT_BLOCK, 50, AuthGuardPolicy.DEFAULT_LOOKUP_LEASE, java.time.Duration.ZERO));
		forgetful.succeeded(forgetful.admit(address, good, T), T);
		int callsBefore = store.calls.get();

		assertThat(forgetful.admit(address, good, T + 1).outcome()).isEqualTo(ADMITTED);
		assertThat(store.calls.get()).isGreaterThan(callsBefore);
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
