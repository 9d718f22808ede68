package dev.limiter.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.StoreMode;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.StoreNotCalledException;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.core.internal.InMemoryRateLimitStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailOpenRateLimitStoreTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final long LEASE_T0 = T0;

	private static final Budget LEASED_FOR_BINDING = Budget.builder("leased")
		.window("minute", 100, Duration.ofMinutes(1))
		.concurrency(1, Duration.ofSeconds(30))
		.build();

	private static final Budget ANONYMOUS = Budget.builder("anonymous")
		.window("minute", 60, Duration.ofMinutes(1))
		.window("hour", 1_000, Duration.ofHours(1))
		.build();

	private static final Budget CLOSED = Budget.builder("closed").window("minute", 60, Duration.ofMinutes(1)).build();

	private final SwitchableStore backend = new SwitchableStore();

	private final RecordingListener listener = new RecordingListener();

	private final FailOpenRateLimitStore store = new FailOpenRateLimitStore(backend, 1_000,
			b -> b.name().equals("closed"), 5_000, listener);

	@Test
	void peekWhenTheStoreFailsShouldSayTheStateIsDegraded() {
		assertThat(store.peek(ANONYMOUS, "a", T0).degraded()).isFalse();
		backend.down = true;

		assertThat(store.peek(ANONYMOUS, "a", T0).degraded()).isTrue();
	}

	@Test
	void takeWhenCostExceedsTheLimitShouldFailWithoutTouchingTheFallback() {
		assertThatThrownBy(() -> store.take(ANONYMOUS, "a", 61, false, T0)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("window 'minute'");
		assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
		assertThat(listener.events).isEmpty();
	}

	@Test
	void guardBlockReadThroughPeekWhenTheStoreFailsShouldBeDegraded() {
		backend.down = true;
		dev.limiter.core.guard.AuthGuard guard = new dev.limiter.core.guard.AuthGuard(store,
				new dev.limiter.core.guard.AuthGuardPolicy(1, Duration.ofMinutes(15), Duration.ofMinutes(30), 10,
						Duration.ofSeconds(30)));
		String address = dev.limiter.core.guard.AuthGuard.addressKey("203.0.113.7");
		guard.failed(guard.admit(address, T0), T0);

		dev.limiter.core.guard.GuardAdmission blocked = guard.admit(address, T0 + 1);

		assertThat(blocked.outcome()).isEqualTo(dev.limiter.core.guard.GuardAdmission.Outcome.BLOCKED);
		assertThat(blocked.degraded()).isTrue();
	}

	@Test
	void takeWhenTheStoreAnswersShouldBeAuthoritative() {
		Decision d = store.take(ANONYMOUS, "a", 1, false, T0);

		assertThat(d.degraded()).isFalse();
		assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
		assertThat(listener.events).isEmpty();
	}

	@Test
	void takeWhenTheStoreFailsShouldLetTheFallbackDecideWithTheSameArithmeticAndSaySo() {
		backend.down = true;
		List<Decision> decisions = new ArrayList<>();
		for (int i = 0; i < 61; i++) {
			decisions.add(store.take(ANONYMOUS, "a", 1, false, T0 + i));
		}

		assertThat(decisions).allMatch(Decision::degraded).allMatch(Decision::counted);
		assertThat(decisions.subList(0, 60)).allMatch(Decision::allowed);
		assertThat(decisions.get(60).allowed()).isFalse();
		assertThat(decisions.get(60).retryAfterMillis()).isEqualTo(60_000 - 60);
		assertThat(store.mode()).isEqualTo(StoreMode.DEGRADED);
		assertThat(store.fallbackKeys()).isEqualTo(1);
	}

	@Test
	void outageWhenOnlyRefusalsComeBackShouldNotEndUntilTheStoreAdmits() {
		Budget tiny = Budget.builder("tiny").window("minute", 1, Duration.ofMinutes(1)).build();
		store.take(tiny, "spent", 1, false, T0);
		backend.down = true;
		store.take(tiny, "other", 1, false, T0 + 1);
		backend.down = false;

		// a refusal may come from a local memory of keys over their limit, with no store
		// call: it proves nothing
		assertThat(store.take(tiny, "spent", 1, false, T0 + 2).allowed()).isFalse();
		assertThat(store.mode()).isEqualTo(StoreMode.DEGRADED);

		assertThat(store.take(tiny, "fresh", 1, false, T0 + 3).allowed()).isTrue();
		assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
		assertThat(listener.events).containsExactly("degraded:switchable", "recovered:switchable");
	}

	@Test
	void outageWhenItStartsAndEndsShouldBeAnnouncedOnceEach() {
		backend.down = true;
		for (int i = 0; i < 1_000; i++) {
			store.take(ANONYMOUS, "k" + i, 1, false, T0 + i);
		}
		backend.down = false;
		for (int i = 0; i < 100; i++) {
			store.take(ANONYMOUS, "k" + i, 1, false, T0 + 2_000 + i);
		}

		assertThat(listener.events).containsExactly("degraded:switchable", "recovered:switchable");
		assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
	}

	@Test
	void outageWhenFailuresAreConcurrentShouldBeAnnouncedOnce() throws Exception {
		backend.down = true;
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				int thread = t;
				futures.add(pool.submit(() -> {
					for (int i = 0; i < 200; i++) {
						store.take(ANONYMOUS, "t" + thread, 1, false, T0 + i);
					}
				}));
			}
			for (Future<?> f : futures) {
				f.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}

		assertThat(listener.events).containsExactly("degraded:switchable");
	}

	@Test
	void budgetWhenItFailsClosedShouldBeRefusedAsUnavailable() {
		backend.down = true;

		assertThatThrownBy(() -> store.take(CLOSED, "a", 1, false, T0))
			.isInstanceOfSatisfying(StoreUnavailableException.class, e -> {
				assertThat(e.budget()).isEqualTo("closed");
				assertThat(e.retryAfterSeconds()).isEqualTo(5);
			});
		assertThat(store.mode()).isEqualTo(StoreMode.DEGRADED);
	}

	@Test
	void countersWhenTheStoreRecoversShouldBeAuthoritativeAtOnce() {
		for (int i = 0; i < 60; i++) {
			store.take(ANONYMOUS, "a", 1, false, T0 + i);
		}
		backend.down = true;
		assertThat(store.take(ANONYMOUS, "a", 1, false, T0 + 100).allowed()).as("fallback knows nothing").isTrue();
		backend.down = false;

		Decision d = store.take(ANONYMOUS, "a", 1, false, T0 + 200);

		assertThat(d.degraded()).isFalse();
		assertThat(d.allowed()).as("the store still holds the 60 it counted").isFalse();
	}

	@Test
	void leaseWhenReleasedShouldGoToTheStoreThatIssuedIt() {
		Budget leased = Budget.builder("leased")
			.window("minute", 100, Duration.ofMinutes(1))
			.concurrency(1, Duration.ofSeconds(30))
			.build();
		Lease authoritative = store.take(leased, "a", 1, true, T0).lease().orElseThrow();
		backend.down = true;
		Lease degraded = store.take(leased, "a", 1, true, T0 + 1).lease().orElseThrow();
		assertThat(store.take(leased, "a", 1, true, T0 + 2).allowed()).isFalse();

		store.release(degraded, T0 + 3);
		assertThat(store.take(leased, "a", 1, true, T0 + 4).allowed()).isTrue();
		backend.down = false;
		store.release(authoritative, T0 + 5);

		assertThat(store.take(leased, "a", 1, true, T0 + 6).allowed()).isTrue();
	}

	@Test
	void outageWhenGuardStillHalfOpenShouldNotEndOnAProbesSuccess() {
		java.util.concurrent.atomic.AtomicBoolean settled = new java.util.concurrent.atomic.AtomicBoolean(true);
		FailOpenRateLimitStore guarded = new FailOpenRateLimitStore(backend, 1_000, b -> false, 5_000, listener,
				settled::get);
		backend.down = true;
		guarded.take(ANONYMOUS, "a", 1, false, T0);
		settled.set(false);
		backend.down = false;

		guarded.take(ANONYMOUS, "a", 1, false, T0 + 1);
		assertThat(guarded.mode()).as("a half-open probe succeeded, the guard has not closed")
			.isEqualTo(StoreMode.DEGRADED);
		settled.set(true);
		guarded.take(ANONYMOUS, "a", 1, false, T0 + 2);

		assertThat(listener.events).containsExactly("degraded:switchable", "recovered:switchable");
		assertThat(guarded.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
	}

	@Test
	void guardRefusalWhenGuardSettledShouldNotStartAnOutage() {
		FailOpenRateLimitStore guarded = new FailOpenRateLimitStore(backend, 1_000, b -> false, 5_000, listener,
				() -> true);
		backend.refuse = true;

		Decision d = guarded.take(ANONYMOUS, "a", 1, false, T0);

		assertThat(d.degraded()).as("decided by the fallback all the same").isTrue();
		assertThat(listener.events).isEmpty();
		assertThat(guarded.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
	}

	@Test
	void guardRefusalWhenGuardOpenShouldStartAnOutageNamingTheLastStoreFailure() {
		FailOpenRateLimitStore guarded = new FailOpenRateLimitStore(backend, 1_000, b -> false, 5_000, listener,
				() -> false);
		backend.refuse = true;

		guarded.take(ANONYMOUS, "a", 1, false, T0);

		assertThat(listener.events).containsExactly("degraded:switchable");
		assertThat(listener.causes).singleElement()
			.satisfies(cause -> assertThat(cause.getCause()).hasMessage("connection reset by peer"));
	}

	@Test
	void probeWhenTheStoreAnswersAgainShouldCloseTheBreakerAndEndTheOutageWithoutARequest() throws Exception {
		CircuitBreaker breaker = CircuitBreaker.of("probed",
				CircuitBreakerConfig.custom()
					.slidingWindowSize(2)
					.minimumNumberOfCalls(2)
					.waitDurationInOpenState(Duration.ofMillis(1))
					.permittedNumberOfCallsInHalfOpenState(3)
					.build());
		CircuitBreakingRateLimitStore breaking = new CircuitBreakingRateLimitStore(backend, breaker);
		FailOpenRateLimitStore guarded = new FailOpenRateLimitStore(breaking, 1_000, b -> false, 5_000, listener,
				breaking::settled);
		backend.down = true;
		guarded.take(ANONYMOUS, "a", 1, false, T0);
		guarded.take(ANONYMOUS, "a", 1, false, T0 + 1);
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);

		backend.down = false;
		Thread.sleep(5);

		assertThat(guarded.probe(T0 + 3)).isEqualTo(StoreMode.AUTHORITATIVE);
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(listener.events).containsExactly("degraded:switchable", "recovered:switchable");
		assertThat(backend.delegate.size()).as("a probe counts nothing").isZero();
	}

	@Test
	void probeWhenTheStoreStillFailsShouldStayDegradedAndStartNoSecondOutage() {
		backend.down = true;
		store.take(ANONYMOUS, "a", 1, false, T0);

		assertThat(store.probe(T0 + 1)).isEqualTo(StoreMode.DEGRADED);
		assertThat(listener.events).containsExactly("degraded:switchable");
	}

	@Test
	void probeWhenAuthoritativeShouldNotCallTheStore() {
		backend.down = true;

		assertThat(store.probe(T0)).isEqualTo(StoreMode.AUTHORITATIVE);
		assertThat(listener.events).isEmpty();
	}

	/**
	 * A store of our own SPI that can be switched off; the Redis store's real faults are
	 * tested in the starter.
	 */
	private static final class SwitchableStore implements RateLimitStore {

		final InMemoryRateLimitStore delegate = new InMemoryRateLimitStore(1_000);

		volatile boolean down;

		volatile boolean refuse;

		private void check() {
			if (refuse) {
				throw new StoreNotCalledException("breaker open; store not called",
						new RateLimitStoreException("connection reset by peer"));
			}
			if (down) {
				throw new RateLimitStoreException("switched off");
			}
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			check();
			return delegate.take(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public void release(Lease lease, long nowMillis) {
			check();
			delegate.release(lease, nowMillis);
		}

		@Override
		public KeyState peek(Budget budget, String key, long nowMillis) {
			check();
			return delegate.peek(budget, key, nowMillis);
		}

		@Override
		public void reset(Budget budget, String key) {
			check();
			delegate.reset(budget, key);
		}

		@Override
		public String name() {
			return "switchable";
		}

	}

	private static final class RecordingListener implements StoreModeListener {

		final List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());

		final List<Throwable> causes = java.util.Collections.synchronizedList(new ArrayList<>());

		@Override
		public void degraded(String store, Throwable cause) {
			events.add("degraded:" + store);
			causes.add(cause);
		}

		@Override
		public void recovered(String store) {
			events.add("recovered:" + store);
		}

	}

	@Test
	void takeWhenThroughFailOpenStoreShouldBindTheLeaseToTheAnsweringStore() {
		InMemoryRateLimitStore authoritative = new InMemoryRateLimitStore(100);
		FailOpenRateLimitStore store = new FailOpenRateLimitStore(authoritative, 100, b -> false, 1_000,
				new StoreModeListener() {
					@Override
					public void degraded(String name, Throwable cause) {
					}

					@Override
					public void recovered(String name) {
					}
				});

		assertThat(store.take(LEASED_FOR_BINDING, "a", 1, true, LEASE_T0).lease().orElseThrow().issuer())
			.isSameAs(authoritative);
	}

}
