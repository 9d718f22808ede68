package dev.limiter.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.contract.RateLimitStoreContractTests;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InMemoryRateLimitStoreTests extends RateLimitStoreContractTests {

	private static final Budget BRIEF = Budget.builder("brief").window("second", 5, Duration.ofSeconds(1)).build();

	@Override
	protected RateLimitStore createStore() {
		return new InMemoryRateLimitStore(100_000);
	}

	@Test
	void takeWhenCountPlusCostPassesTheLargestLimitShouldRefuse() {
		Budget budget = Budget.builder("huge").window("minute", 1L << 50, Duration.ofMinutes(1)).build();
		assertThat(store.take(budget, key, 1, false, T0).allowed()).isTrue();

		assertThat(store.take(budget, key, 1L << 50, false, T0 + 1).allowed()).isFalse();
	}

	@Test
	void takeWhenSixteenThreadsShareOneKeyShouldAdmitExactlyTheLimit() throws Exception {
		Budget budget = Budget.builder("hot").window("minute", 1_000, Duration.ofMinutes(1)).build();
		AtomicInteger admitted = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 16; t++) {
				futures.add(pool.submit(() -> {
					start.await();
					for (int i = 0; i < 500; i++) {
						if (store.take(budget, key, 1, false, T0 + i).allowed()) {
							admitted.incrementAndGet();
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> f : futures) {
				f.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}

		assertThat(admitted.get()).isEqualTo(1_000);
	}

	@Test
	void takeWhenSixteenThreadsRaceShouldNeverHoldMoreLeasesThanTheBound() throws Exception {
		Budget budget = Budget.builder("leases")
			.window("minute", 1_000_000, Duration.ofMinutes(1))
			.concurrency(3, Duration.ofSeconds(30))
			.build();
		AtomicInteger inFlight = new AtomicInteger();
		AtomicInteger maxSeen = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 16; t++) {
				futures.add(pool.submit(() -> {
					for (int i = 0; i < 2_000; i++) {
						Decision d = store.take(budget, key, 1, true, T0 + 1);
						if (d.allowed()) {
							int now = inFlight.incrementAndGet();
							maxSeen.accumulateAndGet(now, Math::max);
							inFlight.decrementAndGet();
							store.release(d.lease().orElseThrow(), T0 + 1);
						}
					}
					return null;
				}));
			}
			for (Future<?> f : futures) {
				f.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}

		assertThat(maxSeen.get()).isBetween(1, 3);
		assertThat(store.peek(budget, key, T0 + 1).bounds().get(1).remaining()).isEqualTo(3);
	}

	@Test
	void maxKeysWhenFloodedByDistinctKeysShouldHold() {
		InMemoryRateLimitStore bounded = new InMemoryRateLimitStore(1_000);
		for (int i = 0; i < 200_000; i++) {
			bounded.take(STANDARD, "flood-" + i, 1, false, T0 + i);
		}

		assertThat(bounded.size()).isLessThanOrEqualTo(1_000).isGreaterThan(0);
	}

	@Test
	void idleKeysWhenTheirWindowsEndShouldBeSwept() {
		InMemoryRateLimitStore memory = oldKeysThenNewTrafficAt(T0 + 5_000);

		assertThat(memory.size()).as("every old key lay in a segment that new traffic passed").isEqualTo(5_000);
	}

	@Test
	void idleKeysWhenWithinTheExpiryMarginShouldBeKept() {
		long reset = T0 + 1_000;
		InMemoryRateLimitStore memory = oldKeysThenNewTrafficAt(
				reset + InMemoryRateLimitStore.EXPIRY_MARGIN_MILLIS - 1);

		assertThat(memory.size()).as("no old key swept a millisecond before the margin ends").isEqualTo(5_100);
		assertThat(memory.take(BRIEF, "old-0", 1, false, reset - 1).bindingWindow().remaining())
			.as("a clock back within the margin still counts in the key's window")
			.isEqualTo(3);
	}

	@Test
	void idleKeysWhenTheExpiryMarginEndsShouldBeSweptExactlyThen() {
		long reset = T0 + 1_000;
		InMemoryRateLimitStore memory = oldKeysThenNewTrafficAt(reset + InMemoryRateLimitStore.EXPIRY_MARGIN_MILLIS);

		assertThat(memory.size()).isEqualTo(5_000);
	}

	@Test
	void maxKeysWhenNotPositiveShouldBeRejected() {
		assertThatThrownBy(() -> new InMemoryRateLimitStore(0)).hasMessageContaining("max-keys");
	}

	@Test
	void costWhenNotPositiveShouldBeRejected() {
		assertThatThrownBy(() -> store.take(STANDARD, key, 0, false, T0)).hasMessageContaining("cost");
	}

	/**
	 * 100 keys of a one-second window taken at {@code T0} (their window resets at
	 * {@code T0 + 1 s}), then 5,000 new keys taken at {@code newMillis}.
	 */
	private static InMemoryRateLimitStore oldKeysThenNewTrafficAt(long newMillis) {
		InMemoryRateLimitStore memory = new InMemoryRateLimitStore(10_000);
		for (int i = 0; i < 100; i++) {
			memory.take(BRIEF, "old-" + i, 1, false, T0);
		}
		for (int i = 0; i < 5_000; i++) {
			memory.take(BRIEF, "new-" + i, 1, false, newMillis);
		}
		return memory;
	}

}
