package dev.limiter.resilience;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import dev.limiter.core.Budget;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.StoreMode;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.StoreNotCalledException;

/**
 * The mode of a {@link FailOpenRateLimitStore}, which changes once per outage: a call
 * that was already in flight when the outage was noticed cannot end it by succeeding
 * late, a call that was in flight when it ended cannot start a new one by failing late,
 * and when a guard stands in front of the store (a circuit breaker) the outage ends only
 * once the guard has settled (closed again), so that a half-open breaker's refusals never
 * start a second outage right after the first one ended. Calls are numbered when they
 * start and reported when they end, on whichever thread: the same for a call waited for
 * and for one answered later.
 */
final class OutageMode {

	/**
	 * What a probe reads, without counting: a key without the prefix ({@code t:},
	 * {@code p:}, {@code a:}) every counted key has.
	 */
	private static final Budget PROBE_BUDGET = Budget.builder("limiter-probe")
		.window("probe", 1, Duration.ofSeconds(1))
		.build();

	private static final String PROBE_KEY = "probe";

	/**
	 * A half-open breaker permits a configured number of trial calls, then has closed or
	 * refuses: this only bounds a probe against a guard that never settles.
	 */
	private static final int MAX_PROBE_READS = 100;

	private final String store;

	private final StoreModeListener listener;

	private final BooleanSupplier guardSettled;

	private final AtomicLong calls = new AtomicLong();

	/**
	 * The call number at which the current outage was noticed; -1 while authoritative.
	 */
	private final AtomicLong degradedSinceCall = new AtomicLong(-1);

	/**
	 * The call number at which the last outage ended; calls up to it were in flight
	 * during that outage.
	 */
	private final AtomicLong recoveredAtCall = new AtomicLong(-1);

	OutageMode(String store, StoreModeListener listener, BooleanSupplier guardSettled) {
		this.store = store;
		this.listener = Objects.requireNonNull(listener, "listener");
		this.guardSettled = Objects.requireNonNull(guardSettled, "guardSettled");
	}

	/** Numbers a call about to start. */
	long started() {
		return calls.incrementAndGet();
	}

	StoreMode mode() {
		return degradedSinceCall.get() < 0 ? StoreMode.AUTHORITATIVE : StoreMode.DEGRADED;
	}

	/**
	 * While degraded, reads a key nobody is counted under from {@code store} until the
	 * outage ends or a read fails ({@link FailOpenRateLimitStore#probe}).
	 */
	StoreMode probe(RateLimitStore store, long nowMillis) {
		for (int read = 0; read < MAX_PROBE_READS && mode() == StoreMode.DEGRADED; read++) {
			long call = started();
			try {
				store.peek(PROBE_BUDGET, PROBE_KEY, nowMillis);
			}
			catch (RuntimeException stillFailing) {
				break;
			}
			succeeded(call);
		}
		return mode();
	}

	/** The store answered call {@code call}: ends an outage noticed before it started. */
	void succeeded(long call) {
		long since = degradedSinceCall.get();
		if (since >= 0 && call > since && guardSettled.getAsBoolean()) {
			// written before the mode flips, so that no late failure of an older call
			// slips in between
			recoveredAtCall.accumulateAndGet(calls.get(), Math::max);
			if (degradedSinceCall.compareAndSet(since, -1)) {
				listener.recovered(store);
			}
		}
	}

	/**
	 * Call {@code call} failed: starts an outage, unless it belongs to an earlier one.
	 */
	void failed(long call, RuntimeException failure) {
		if (degradedSinceCall.get() >= 0 || call <= recoveredAtCall.get()) {
			return;
		}
		if (failure instanceof StoreNotCalledException && guardSettled.getAsBoolean()) {
			// refused just before the guard closed: this call is decided by the fallback,
			// but the store is fine
			return;
		}
		if (degradedSinceCall.compareAndSet(-1, call)) {
			listener.degraded(store, failure);
		}
	}

}
