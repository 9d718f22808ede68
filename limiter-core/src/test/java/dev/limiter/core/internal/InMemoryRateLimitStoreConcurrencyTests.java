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
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions that find a key just as it is evicted or reset count in the key's live entry,
 * never in a forgotten one; many more threads than processors on one key wait for its
 * lock without losing a count.
 */
class InMemoryRateLimitStoreConcurrencyTests {

	private static final long T = 1_700_000_000_000L;

	@Test
	void takeWhenOtherKeysEvictItMeanwhileShouldStillDecideWithinMaxKeys() throws Exception {
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(1);
		Budget budget = Budget.builder("standard").window("minute", 1_000_000, Duration.ofMinutes(1)).build();
		AtomicInteger admitted = new AtomicInteger();

		run(4, (thread) -> {
			for (int i = 0; i < 5_000; i++) {
				if (store.take(budget, "t:" + ((thread + i) % 3), 1, false, T).allowed()) {
					admitted.incrementAndGet();
				}
			}
		});

		assertThat(admitted).hasValue(4 * 5_000);
		assertThat(store.size()).isEqualTo(1);
	}

	@Test
	void resetWhenThreadsTakeOneKeyShouldLeaveOneEntryCountingEveryLaterTake() throws Exception {
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(1_000);
		Budget budget = Budget.builder("standard").window("minute", 1_000_000, Duration.ofMinutes(1)).build();

		run(4, (thread) -> {
			for (int i = 0; i < 5_000; i++) {
				if (thread == 0 && i % 10 == 0) {
					store.reset(budget, "t:hot");
				}
				else {
					store.take(budget, "t:hot", 1, false, T);
				}
			}
		});
		store.reset(budget, "t:hot");
		for (int i = 0; i < 5; i++) {
			store.take(budget, "t:hot", 1, false, T);
		}

		assertThat(store.size()).isEqualTo(1);
		assertThat(store.peek(budget, "t:hot", T).bounds().get(0).remaining()).isEqualTo(1_000_000 - 5);
	}

	@ParameterizedTest
	@EnumSource(value = WindowAlgorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW", "TOKEN_BUCKET" })
	void takeWhenThirtyTwoThreadsShareOneKeyShouldAdmitExactlyTheLimit(WindowAlgorithm algorithm) throws Exception {
		// More threads than processors: waiters yield while a preempted holder keeps the
		// lock, and each decision still sees every count before it.
		long limit = 10_000;
		boolean takesBurst = algorithm.kind().takesBurst();
		Window window = new Window("minute", limit, Duration.ofMinutes(1), algorithm,
				takesBurst ? Long.valueOf(limit) : null, null);
		Budget budget = Budget.builder("hot").window(window).build();
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(1_000);
		AtomicInteger admitted = new AtomicInteger();

		run(32, (thread) -> {
			for (int i = 0; i < 1_000; i++) {
				if (store.take(budget, "t:hot", 1, false, T).allowed()) {
					admitted.incrementAndGet();
				}
			}
		});

		assertThat(admitted).as("32,000 attempts at one moment").hasValue((int) limit);
		assertThat(store.peek(budget, "t:hot", T).bounds().get(0).remaining()).isZero();
	}

	private static void run(int threads, ThreadBody body) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				futures.add(pool.submit(() -> {
					start.await();
					body.run(thread);
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@FunctionalInterface
	private interface ThreadBody {

		void run(int thread);

	}

}
