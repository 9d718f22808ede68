package dev.limiter.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.SlicedRateLimitStore;
import dev.limiter.core.StoreMode;
import dev.limiter.core.contract.SlicingModelStore;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.AuthGuardStoreProvider;
import dev.limiter.core.guard.StoreBackedAuthGuardStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order of the decorators of every store stack: when remote, leased slices in front
 * of fail-open around the breaker around the over-limit memory around the raw store, so
 * that a local admission passes nothing below the slices and a slice call passes
 * everything; the memory alone in this process; the guard's store beside either.
 */
class StoreStackTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget ONE = Budget.builder("one").window("minute", 1, Duration.ofMinutes(1)).build();

	private static final Budget SLICED = Budget.builder("sliced")
		.window("minute", 1_000, Duration.ofMinutes(1))
		.slices(new SliceTerms(10, Duration.ofSeconds(5)))
		.build();

	private static final Budget SLICED_FIVE = Budget.builder("sliced-five")
		.window("minute", 5, Duration.ofMinutes(1))
		.slices(new SliceTerms(10, Duration.ofSeconds(5)))
		.build();

	private final FailurePolicy policy = new FailurePolicy(CircuitBreaker.ofDefaults("limiter"), 100, Set.of(),
			List.of());

	private final CountingStore raw = new CountingStore();

	private final SlicingStore slicing = new SlicingStore();

	@Test
	void remoteWhenBuiltShouldPutTheSlicesInFrontOfFailOpenAroundBreakerAroundOverLimitMemoryAroundTheStore() {
		FailOpenRateLimitStore stack = StoreStack.remote(raw, policy);

		assertThat(stack.front()).isInstanceOf(SlicedRateLimitStore.class);
		assertThat(stack.authoritative()).isInstanceOfSatisfying(CircuitBreakingRateLimitStore.class, breaking -> {
			assertThat(breaking.breaker()).isSameAs(policy.breaker());
			assertThat(breaking.delegate()).isInstanceOfSatisfying(OverLimitRememberingStore.class,
					remembering -> assertThat(remembering.delegate()).isSameAs(raw));
		});
	}

	@Test
	void remoteWhenASliceIsHeldShouldAdmitFromItWithoutPassingTheBreaker() {
		FailOpenRateLimitStore stack = StoreStack.remote(slicing, policy);
		stack.take(SLICED, "a", 1, false, T0);
		int breakerCalls = policy.circuitBreaker().getMetrics().getNumberOfBufferedCalls();

		List<Decision> local = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			local.add(stack.take(SLICED, "a", 1, false, T0 + 1 + i));
		}

		assertThat(breakerCalls).as("the slice call passed the breaker").isEqualTo(1);
		assertThat(local).allSatisfy((decision) -> assertThat(decision.allowed()).isTrue())
			.allSatisfy((decision) -> assertThat(decision.degraded()).isFalse());
		assertThat(policy.circuitBreaker().getMetrics().getNumberOfBufferedCalls())
			.as("local admissions recorded nothing")
			.isEqualTo(1);
		assertThat(slicing.calls).hasValue(1);
	}

	@Test
	void remoteWhenASliceIsHeldShouldAdmitFromItAsynchronouslyAtOnceWithoutPassingTheBreaker() {
		FailOpenRateLimitStore stack = StoreStack.remote(slicing, policy);
		stack.takeAsync(SLICED, "a", 1, false, T0).toCompletableFuture().join();

		List<CompletableFuture<Decision>> local = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			local.add(stack.takeAsync(SLICED, "a", 1, false, T0 + 1 + i).toCompletableFuture());
		}

		assertThat(local).allSatisfy((stage) -> assertThat(stage).isCompletedWithValueMatching(
				(decision) -> decision.allowed() && !decision.degraded(), "admitted, not degraded"));
		assertThat(policy.circuitBreaker().getMetrics().getNumberOfBufferedCalls()).isEqualTo(1);
		assertThat(slicing.asyncSlices).as("the slice taken through the asynchronous call").hasValue(1);
		assertThat(slicing.calls).hasValue(1);
	}

	@Test
	void remoteWhenTheBreakerIsOpenShouldSpendTheSliceItHoldsUndegradedThenDecideByTheFallback() {
		FailOpenRateLimitStore stack = StoreStack.remote(slicing, policy);
		stack.take(SLICED, "a", 1, false, T0);
		policy.circuitBreaker().transitionToOpenState();

		List<Decision> held = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			held.add(stack.take(SLICED, "a", 1, false, T0 + 1 + i));
		}
		Decision fallback = stack.take(SLICED, "a", 1, false, T0 + 10);

		assertThat(held).allSatisfy((decision) -> assertThat(decision.allowed()).isTrue())
			.allSatisfy((decision) -> assertThat(decision.degraded()).isFalse());
		assertThat(fallback.allowed()).isTrue();
		assertThat(fallback.degraded()).as("the next slice was refused by the open breaker").isTrue();
		assertThat(policy.circuitBreaker().getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(1);
		assertThat(slicing.calls).as("nothing sent while the breaker is open").hasValue(1);
		assertThat(stack.mode()).isEqualTo(StoreMode.DEGRADED);
	}

	@Test
	void remoteWhenTheSliceCallFailsShouldAnswerDegradedAndTheBreakerShouldCountTheFailure() {
		FailOpenRateLimitStore stack = StoreStack.remote(slicing, policy);
		slicing.down.set(true);

		Decision waited = stack.take(SLICED, "a", 1, false, T0);
		Decision answeredLater = stack.takeAsync(SLICED, "a", 1, false, T0 + 1).toCompletableFuture().join();

		assertThat(List.of(waited, answeredLater)).allSatisfy((decision) -> {
			assertThat(decision.allowed()).isTrue();
			assertThat(decision.degraded()).isTrue();
		});
		assertThat(policy.circuitBreaker().getMetrics().getNumberOfFailedCalls()).isEqualTo(2);
		assertThat(stack.mode()).isEqualTo(StoreMode.DEGRADED);
	}

	@Test
	void remoteWhenASlicedKeyIsOverItsLimitShouldRefuseItWithoutAStoreCall() {
		FailOpenRateLimitStore stack = StoreStack.remote(slicing, policy);
		for (int i = 0; i < 5; i++) {
			assertThat(stack.take(SLICED_FIVE, "a", 1, false, T0 + i).allowed()).as("request %d", i + 1).isTrue();
		}
		int calls = slicing.calls.get();

		Decision refused = stack.take(SLICED_FIVE, "a", 1, false, T0 + 10);
		Decision refusedLater = stack.takeAsync(SLICED_FIVE, "a", 1, false, T0 + 11).toCompletableFuture().join();

		assertThat(List.of(refused, refusedLater)).allSatisfy((decision) -> {
			assertThat(decision.allowed()).isFalse();
			assertThat(decision.degraded()).isFalse();
			assertThat(decision.retryAfterMillis()).isPositive();
		});
		assertThat(slicing.calls).as("the admission that left the window at 0 was remembered").hasValue(calls);
	}

	@Test
	void remoteWhenAKeyIsOverItsLimitShouldRefuseItWithoutAStoreCall() {
		FailOpenRateLimitStore stack = StoreStack.remote(raw, policy);
		stack.take(ONE, "a", 1, false, T0);
		stack.take(ONE, "a", 1, false, T0 + 1);
		int calls = raw.takes.get();

		Decision refused = stack.take(ONE, "a", 1, false, T0 + 2);

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.degraded()).isFalse();
		assertThat(raw.takes).hasValue(calls);
	}

	@Test
	void remoteWhenASliceExpiresShouldGiveItsUnitsBackToTheStoreWithoutPassingTheBreaker() {
		FailOpenRateLimitStore stack = StoreStack.remote(slicing, policy);
		stack.take(SLICED, "a", 1, false, T0);

		Decision afterTheTtl = stack.take(SLICED, "a", 1, false, T0 + 6_000);

		assertThat(afterTheTtl.allowed()).isTrue();
		assertThat(slicing.peek(SLICED, "a", T0 + 6_000).bounds().get(0).remaining())
			.as("the first request, the nine units given back, then a new slice of ten")
			.isEqualTo(1_000 - 1 - 10);
		assertThat(policy.circuitBreaker().getMetrics().getNumberOfBufferedCalls()).as("the two slice calls")
			.isEqualTo(2);
	}

	@Test
	void remoteWhenAKeyIsResetShouldForgetTheSliceItHolds() {
		FailOpenRateLimitStore stack = StoreStack.remote(slicing, policy);
		stack.take(SLICED, "a", 1, false, T0);
		SlicedRateLimitStore sliced = (SlicedRateLimitStore) stack.front();
		long heldBefore = sliced.heldUnits(SLICED, "a");

		stack.reset(SLICED, "a");

		assertThat(heldBefore).isEqualTo(9);
		assertThat(sliced.heldUnits(SLICED, "a")).isZero();
		assertThat(slicing.peek(SLICED, "a", T0).bounds().get(0).remaining()).isEqualTo(1_000);
	}

	@Test
	void remoteWhenTheStoreFailsShouldSpendTheSliceItHoldsBeforeTheFallbackDecides() {
		FailOpenRateLimitStore stack = StoreStack.remote(slicing, policy);
		stack.take(SLICED, "a", 1, false, T0);
		slicing.down.set(true);

		List<Decision> held = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			held.add(stack.take(SLICED, "a", 1, false, T0 + 1 + i));
		}
		Decision fallback = stack.take(SLICED, "a", 1, false, T0 + 10);

		assertThat(held).allSatisfy((decision) -> assertThat(decision.degraded()).isFalse())
			.allSatisfy((decision) -> assertThat(decision.allowed()).isTrue());
		assertThat(fallback.degraded()).isTrue();
	}

	@Test
	void guardWhenTheRemoteStoreOffersOneShouldFailOpenAroundTheSharedBreakerAroundItsGuardStore() {
		AuthGuardStore guard = StoreStack.guard(StoreStack.remote(raw, policy), AuthGuardPolicy.defaults(), policy);

		assertThat(guard).isInstanceOfSatisfying(FailOpenAuthGuardStore.class,
				failOpen -> assertThat(failOpen.authoritative())
					.isInstanceOfSatisfying(CircuitBreakingAuthGuardStore.class, breaking -> {
						assertThat(breaking.breaker()).isSameAs(policy.breaker());
						assertThat(breaking.store()).isSameAs(raw.guardStore);
					}));
	}

	@Test
	void localWhenBuiltShouldPutOverLimitMemoryAroundTheStoreOnly() {
		RateLimitStore memory = RateLimitStores.inMemory(10);

		RateLimitStore stack = StoreStack.local(memory, 10);

		assertThat(stack).isInstanceOfSatisfying(OverLimitRememberingStore.class,
				remembering -> assertThat(remembering.delegate()).isSameAs(memory));
	}

	@Test
	void guardWhenTheStoreIsLocalShouldCountThroughTheLimitersStore() {
		AuthGuardStore guard = StoreStack.guard(StoreStack.local(RateLimitStores.inMemory(10), 10),
				AuthGuardPolicy.defaults(), policy);

		assertThat(guard).isInstanceOf(StoreBackedAuthGuardStore.class);
	}

	/**
	 * A raw store that slices as Redis does ({@link SlicingModelStore}), counts the calls
	 * that reach it, and fails every call while {@link #down}.
	 */
	private static final class SlicingStore extends ForwardingRateLimitStore {

		final AtomicInteger calls = new AtomicInteger();

		final AtomicInteger asyncSlices = new AtomicInteger();

		final AtomicBoolean down = new AtomicBoolean();

		private final RateLimitStore model = new SlicingModelStore(RateLimitStores.inMemory(100)).instance("one");

		@Override
		protected RateLimitStore delegate() {
			return model;
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			reached();
			return model.take(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
			reached();
			return model.takeSlice(budget, key, cost, terms, nowMillis);
		}

		@Override
		public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
				long nowMillis) {
			asyncSlices.incrementAndGet();
			try {
				return CompletableFuture.completedFuture(takeSlice(budget, key, cost, terms, nowMillis));
			}
			catch (RateLimitStoreException ex) {
				return CompletableFuture.failedFuture(ex);
			}
		}

		private void reached() {
			calls.incrementAndGet();
			if (down.get()) {
				throw new RateLimitStoreException("down");
			}
		}

	}

	/** A raw store that counts its decisions and offers a guard store of its own. */
	private static final class CountingStore extends ForwardingRateLimitStore implements AuthGuardStoreProvider {

		final AtomicInteger takes = new AtomicInteger();

		final RateLimitStore memory = RateLimitStores.inMemory(100);

		AuthGuardStore guardStore;

		@Override
		protected RateLimitStore delegate() {
			return memory;
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			takes.incrementAndGet();
			return super.take(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public AuthGuardStore authGuardStore(AuthGuardPolicy policy) {
			guardStore = new StoreBackedAuthGuardStore(memory, policy);
			return guardStore;
		}

	}

}
