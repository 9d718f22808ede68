package dev.limiter.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.StoreMode;
import dev.limiter.core.StoreModeListener;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outage log under concurrent load through the real breaker: a half-open breaker
 * refuses most of the concurrent calls while its probes run, and none of those refusals
 * may read as a new outage.
 */
@ExtendWith(OutputCaptureExtension.class)
class OutageLoggingTests {

	private static final Budget BUDGET = Budget.builder("anonymous")
		.window("minute", 1_000_000_000L, Duration.ofMinutes(1))
		.build();

	private static final String REAL_ERROR = "Unable to connect to 127.0.0.1:6390";

	@Test
	void outageWhenBreakerHalfOpenUnderConcurrentLoadShouldLogOneWarningAndOneInfo(CapturedOutput output)
			throws Exception {
		SwitchableStore remote = new SwitchableStore();
		CircuitBreaker breaker = CircuitBreaker.of("limiter",
				CircuitBreakerConfig.custom()
					.slidingWindowSize(10)
					.minimumNumberOfCalls(5)
					.failureRateThreshold(50)
					.waitDurationInOpenState(Duration.ofMillis(100))
					.permittedNumberOfCallsInHalfOpenState(3)
					.build());
		AtomicInteger halfOpenings = new AtomicInteger();
		AtomicInteger refusedWhileHalfOpen = new AtomicInteger();
		breaker.getEventPublisher().onStateTransition(e -> {
			if (e.getStateTransition().getToState() == CircuitBreaker.State.HALF_OPEN) {
				halfOpenings.incrementAndGet();
			}
		});
		breaker.getEventPublisher().onCallNotPermitted(e -> {
			if (breaker.getState() == CircuitBreaker.State.HALF_OPEN) {
				refusedWhileHalfOpen.incrementAndGet();
			}
		});
		RecordingListener recording = new RecordingListener();
		FailOpenRateLimitStore store = new FailurePolicy(breaker, 10_000, Set.of(),
				List.of(recording, OutageLog.storeModes()))
			.protect(remote);
		int before = output.getAll().length();

		AtomicBoolean running = new AtomicBoolean(true);
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> load = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				int thread = t;
				load.add(pool.submit(() -> {
					int i = 0;
					while (running.get()) {
						store.take(BUDGET, "caller-" + thread + "-" + (i++ % 50), 1, false, System.currentTimeMillis());
					}
				}));
			}
			Thread.sleep(200);
			remote.down = true;
			// long enough for the breaker to open and to probe (and fail) half-open
			// several times
			Thread.sleep(1_000);
			remote.down = false;
			awaitAuthoritative(store);
			// half-open refusals and in-flight calls keep coming for a while after the
			// INFO
			Thread.sleep(1_000);
			running.set(false);
			for (Future<?> f : load) {
				f.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			running.set(false);
			pool.shutdownNow();
		}

		assertThat(halfOpenings.get()).as("the breaker went half-open").isPositive();
		assertThat(refusedWhileHalfOpen.get()).as("the half-open breaker refused concurrent calls").isPositive();
		assertThat(recording.events).containsExactly("degraded", "recovered");
		List<String> lines = output.getAll().substring(before).lines().filter(l -> l.contains("dev.limiter")).toList();
		assertThat(lines).filteredOn(l -> l.contains(" WARN "))
			.singleElement()
			.satisfies(l -> assertThat(l).contains("DEGRADED").contains(REAL_ERROR).doesNotContain("store not called"));
		assertThat(lines).filteredOn(l -> l.contains(" INFO "))
			.singleElement()
			.satisfies(l -> assertThat(l).contains("recovered"));
		assertThat(store.mode()).isEqualTo(StoreMode.AUTHORITATIVE);
	}

	@Test
	void outageWhenBreakerOpensFirstShouldNameTheStoresErrorNotTheBreaker(CapturedOutput output) {
		SwitchableStore remote = new SwitchableStore();
		CircuitBreaker breaker = CircuitBreaker.of("limiter",
				CircuitBreakerConfig.custom()
					.slidingWindowSize(5)
					.minimumNumberOfCalls(5)
					.waitDurationInOpenState(Duration.ofMinutes(1))
					.build());
		RecordingListener recording = new RecordingListener();
		FailOpenRateLimitStore store = new FailurePolicy(breaker, 10_000, Set.of(), List.of(recording)).protect(remote);
		remote.down = true;
		for (int i = 0; i < 5; i++) {
			store.take(BUDGET, "a", 1, false, System.currentTimeMillis());
		}
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		// the application's other instance of the wrapper has not seen a failure yet: its
		// first sight is a refusal
		FailOpenRateLimitStore fresh = new FailOpenRateLimitStore(store.authoritative(), 10_000, b -> false, 1_000,
				recording, ((CircuitBreakingRateLimitStore) store.authoritative())::settled);
		recording.events.clear();
		recording.causes.clear();

		Decision decision = fresh.take(BUDGET, "a", 1, false, System.currentTimeMillis());

		assertThat(decision.degraded()).isTrue();
		assertThat(recording.events).containsExactly("degraded");
		assertThat(recording.causes).singleElement().satisfies(cause -> {
			assertThat(cause).hasMessageContaining("store not called");
			assertThat(cause).hasRootCauseMessage(REAL_ERROR);
		});
	}

	private static void awaitAuthoritative(FailOpenRateLimitStore store) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (store.mode() != StoreMode.AUTHORITATIVE) {
			assertThat(System.nanoTime()).as("authoritative within 20 s of the store's return").isLessThan(deadline);
			Thread.sleep(10);
		}
	}

	/**
	 * An in-memory store of the SPI, 2 ms per call, that can be switched off with a
	 * connection-like error.
	 */
	private static final class SwitchableStore implements RateLimitStore {

		final RateLimitStore delegate = RateLimitStores.inMemory(10_000);

		volatile boolean down;

		private void check() {
			// a network round trip: calls overlap, so the half-open breaker's few permits
			// leave others refused
			try {
				Thread.sleep(2);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
			if (down) {
				throw new IllegalStateException("connection failed", new java.net.ConnectException(REAL_ERROR));
			}
		}

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			check();
			return delegate.take(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public void release(Lease lease, long nowMillis) {
			delegate.release(lease, nowMillis);
		}

		@Override
		public KeyState peek(Budget budget, String key, long nowMillis) {
			check();
			return delegate.peek(budget, key, nowMillis);
		}

		@Override
		public void reset(Budget budget, String key) {
			delegate.reset(budget, key);
		}

		@Override
		public String name() {
			return "redis";
		}

	}

	private static final class RecordingListener implements StoreModeListener {

		final List<String> events = Collections.synchronizedList(new ArrayList<>());

		final List<Throwable> causes = Collections.synchronizedList(new ArrayList<>());

		@Override
		public void degraded(String store, Throwable cause) {
			events.add("degraded");
			causes.add(cause);
		}

		@Override
		public void recovered(String store) {
			events.add("recovered");
		}

	}

}
