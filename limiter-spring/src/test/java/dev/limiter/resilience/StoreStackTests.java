package dev.limiter.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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
import dev.limiter.core.contract.SlicingModelStore;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.AuthGuardStoreProvider;
import dev.limiter.core.guard.StoreBackedAuthGuardStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order of the decorators of every store stack: fail-open around the breaker around
 * the over-limit memory around the raw store when remote; the memory alone in this
 * process; the guard's store beside either.
 */
class StoreStackTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget ONE = Budget.builder("one").window("minute", 1, Duration.ofMinutes(1)).build();

	private final FailurePolicy policy = new FailurePolicy(CircuitBreaker.ofDefaults("limiter"), 100, Set.of(),
			List.of());

	private final CountingStore raw = new CountingStore();

	@Test
	void remoteWhenBuiltShouldPutFailOpenAroundBreakerAroundOverLimitMemoryAroundSlicesAroundTheStore() {
		FailOpenRateLimitStore stack = StoreStack.remote(raw, policy);

		assertThat(stack.authoritative()).isInstanceOfSatisfying(CircuitBreakingRateLimitStore.class, breaking -> {
			assertThat(breaking.breaker()).isSameAs(policy.breaker());
			assertThat(breaking.delegate()).isInstanceOfSatisfying(OverLimitRememberingStore.class,
					remembering -> assertThat(remembering.delegate()).isInstanceOfSatisfying(SlicedRateLimitStore.class,
							sliced -> assertThat(sliced.delegate()).isSameAs(raw)));
		});
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
	void remoteWhenTheStoreFailsShouldSpendTheSliceItHoldsBeforeTheFallbackDecides() {
		Budget sliced = Budget.builder("sliced")
			.window("minute", 1_000, Duration.ofMinutes(1))
			.slices(new SliceTerms(10, Duration.ofSeconds(5)))
			.build();
		AtomicBoolean down = new AtomicBoolean();
		RateLimitStore failing = new ForwardingRateLimitStore() {

			private final RateLimitStore model = new SlicingModelStore(RateLimitStores.inMemory(100)).instance("one");

			@Override
			protected RateLimitStore delegate() {
				return model;
			}

			@Override
			public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
				if (down.get()) {
					throw new RateLimitStoreException("down");
				}
				return model.takeSlice(budget, key, cost, terms, nowMillis);
			}

		};
		FailOpenRateLimitStore stack = StoreStack.remote(failing, policy);
		stack.take(sliced, "a", 1, false, T0);
		down.set(true);

		List<Decision> held = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			held.add(stack.take(sliced, "a", 1, false, T0 + 1 + i));
		}
		Decision fallback = stack.take(sliced, "a", 1, false, T0 + 10);

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
