package dev.limiter.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.StoreMode;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.StoreUnavailableException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FailOpenRateLimitStore}'s asynchronous calls decide as the synchronous ones: the
 * authoritative store's answer while it gives one, the fallback's (degraded) when its
 * stage fails, a fail-closed budget's {@link StoreUnavailableException} as the stage's
 * own failure, one outage per outage.
 */
class FailOpenRateLimitStoreAsyncTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget ANONYMOUS = Budget.builder("anonymous")
		.window("minute", 60, Duration.ofMinutes(1))
		.window("hour", 1_000, Duration.ofHours(1))
		.build();

	private static final Budget CLOSED = Budget.builder("closed").window("minute", 60, Duration.ofMinutes(1)).build();

	private static final Budget LEASED = Budget.builder("leased")
		.window("minute", 100, Duration.ofMinutes(1))
		.concurrency(1, Duration.ofSeconds(30))
		.build();

	private final LaterStore backend = new LaterStore();

	private final List<String> events = Collections.synchronizedList(new ArrayList<>());

	private final FailOpenRateLimitStore store = failOpen(backend);

	@Test
	void takeAsyncWhenTheStoresStageFailsShouldDecideAsTakeDoesWithTheFallback() {
		FailOpenRateLimitStore waited = new FailOpenRateLimitStore(new LaterStore(), 1_000,
				b -> b.name().equals("closed"), 5_000, StoreModeListener.NONE);
		((LaterStore) waited.authoritative()).down = true;
		backend.down = true;

		for (int i = 0; i < 3; i++) {
			Decision byTake = waited.take(ANONYMOUS, "a", 1, false, T0 + i);
			Decision byTakeAsync = store.takeAsync(ANONYMOUS, "a", 1, false, T0 + i).toCompletableFuture().join();

			assertThat(byTakeAsync.degraded()).isTrue();
			assertThat(byTakeAsync.verdicts()).isEqualTo(byTake.verdicts());
		}
		assertThat(events).containsExactly("degraded:later");
	}

	@Test
	void takeAsyncWhenTheStoreAnswersAgainShouldEndTheOutageOnce() {
		backend.down = true;
		store.takeAsync(ANONYMOUS, "a", 1, false, T0).toCompletableFuture().join();
		backend.down = false;

		Decision answered = store.takeAsync(ANONYMOUS, "a", 1, false, T0 + 1).toCompletableFuture().join();

		assertThat(answered.degraded()).isFalse();
		assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
		assertThat(events).containsExactly("degraded:later", "recovered:later");
	}

	@Test
	void takeAsyncWhenAFailClosedBudgetsStoreFailsShouldFailWithStoreUnavailableItself() {
		backend.down = true;

		Throwable failure = store.takeAsync(CLOSED, "a", 1, false, T0)
			.handle((decision, thrown) -> thrown)
			.toCompletableFuture()
			.join();

		assertThat(failure).isInstanceOf(StoreUnavailableException.class);
		assertThat(((StoreUnavailableException) failure).retryAfterMillis()).isEqualTo(5_000);
	}

	@Test
	void takeAsyncWhenTheCostIsOutOfRangeShouldFailBeforeAnythingIsCounted() {
		Throwable failure = store.takeAsync(ANONYMOUS, "a", 61, false, T0)
			.handle((decision, thrown) -> thrown)
			.toCompletableFuture()
			.join();

		assertThat(failure).isInstanceOf(IllegalArgumentException.class);
		assertThat(backend.calls).isZero();
		assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
	}

	@Test
	void renewAsyncWhenTheLeaseCameFromTheFallbackShouldRenewItThere() {
		backend.down = true;
		Lease lease = store.takeAsync(LEASED, "a", 1, true, T0).toCompletableFuture().join().lease().orElseThrow();

		boolean renewed = store.renewAsync(lease, T0 + 60_000, T0 + 1).toCompletableFuture().join();

		assertThat(renewed).isTrue();
		assertThat(backend.calls).as("the authoritative store was asked only for the decision").isEqualTo(1);
	}

	private FailOpenRateLimitStore failOpen(LaterStore authoritative) {
		return new FailOpenRateLimitStore(authoritative, 1_000, b -> b.name().equals("closed"), 5_000,
				new StoreModeListener() {
					@Override
					public void degraded(String name, Throwable cause) {
						events.add("degraded:" + name);
					}

					@Override
					public void recovered(String name) {
						events.add("recovered:" + name);
					}
				});
	}

	/**
	 * An in-memory store answering its asynchronous calls with dependent stages (as a
	 * network client does: a failure arrives wrapped in a
	 * {@link java.util.concurrent.CompletionException}); {@code down} fails them.
	 */
	private static final class LaterStore extends ForwardingRateLimitStore {

		private final RateLimitStore memory = RateLimitStores.inMemory(1_000);

		volatile boolean down;

		int calls;

		@Override
		protected RateLimitStore delegate() {
			return memory;
		}

		@Override
		public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
				long nowMillis) {
			calls++;
			return CompletableFuture.completedFuture(key).thenApply(k -> {
				if (down) {
					throw new RateLimitStoreException("Redis store did not answer within 300ms");
				}
				return memory.take(budget, k, cost, expensive, nowMillis);
			});
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			calls++;
			if (down) {
				throw new RateLimitStoreException("switched off");
			}
			return memory.take(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public String name() {
			return "later";
		}

	}

}
