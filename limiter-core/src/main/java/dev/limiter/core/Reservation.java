package dev.limiter.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What an admitted request reserved in the windows of a budget that counts units other
 * than requests, and the window instances it counted in: settled once, after the handler,
 * with the amounts the application reports (ADR 0012).
 *
 * <p>
 * The instance of each window is what the reservation counted in, read from the decision:
 * for a fixed window the end of the window (its {@code reset}), for a sliding window the
 * bucket (the newest one, which an admission always counts in), for a token bucket
 * nothing (a settlement moves its theoretical arrival time, whenever it comes).
 * Thread-safe: {@link #settle} succeeds once, whoever calls it first.
 */
public final class Reservation {

	private final Budget budget;

	private final String key;

	private final long[] instances;

	private final long[] reserved;

	private final boolean degraded;

	private final AtomicBoolean settled = new AtomicBoolean();

	private Reservation(Budget budget, String key, long[] instances, long[] reserved, boolean degraded) {
		this.budget = budget;
		this.key = key;
		this.instances = instances;
		this.reserved = reserved;
		this.degraded = degraded;
	}

	/**
	 * The reservation an admitted decision made; empty when it was refused (a refused
	 * request has nothing to settle), counted nothing (a store failure let it through) or
	 * the budget counts requests only.
	 * @param amounts what the decision took from each window
	 * ({@link Budget#amounts(long, Map)})
	 */
	public static Optional<Reservation> of(Budget budget, String key, Decision decision, long[] amounts) {
		if (!decision.allowed() || !decision.counted() || !budget.hasUnits()) {
			return Optional.empty();
		}
		List<Window> windows = budget.windows();
		long[] instances = new long[windows.size()];
		for (int i = 0; i < instances.length; i++) {
			Window w = windows.get(i);
			BoundVerdict verdict = decision.verdicts().get(i);
			instances[i] = w.algorithm().kind().reservedInstance(w, verdict);
		}
		return Optional.of(new Reservation(budget, key, instances, amounts.clone(), decision.degraded()));
	}

	public Budget budget() {
		return budget;
	}

	public String key() {
		return key;
	}

	/** Whether the degraded fallback made the reservation, and must settle it. */
	public boolean degraded() {
		return degraded;
	}

	/** Per unit other than requests, the estimate reserved, in window order. */
	public Map<String, Long> estimates() {
		Map<String, Long> estimates = new LinkedHashMap<>();
		List<Window> windows = budget.windows();
		for (int i = 0; i < reserved.length; i++) {
			if (!windows.get(i).countsRequests()) {
				estimates.putIfAbsent(windows.get(i).unit(), reserved[i]);
			}
		}
		return estimates;
	}

	/** Whether {@link #settle} already ran. */
	public boolean settled() {
		return settled.get();
	}

	/**
	 * The settlement for the amounts used, the first time only: per window in a reported
	 * unit, the actual amount minus the estimate (a refund when negative); a unit not
	 * reported keeps its estimate, never settled as if it had been the actual amount. An
	 * amount above a window's {@link SettlementBounds#maxReport} counts that maximum
	 * there, and the rest is {@link Settlement#clamped}.
	 * @param actuals per unit, the amount used, at least 0
	 * @return empty when this reservation was settled before
	 * @throws IllegalArgumentException for a negative amount (nothing is settled then)
	 */
	public Optional<Settlement> settle(Map<String, Long> actuals) {
		for (Map.Entry<String, Long> actual : actuals.entrySet()) {
			if (actual.getValue() == null || actual.getValue() < 0) {
				throw new IllegalArgumentException(
						"amount of '" + actual.getKey() + "' must be at least 0, was " + actual.getValue());
			}
		}
		if (!settled.compareAndSet(false, true)) {
			return Optional.empty();
		}
		List<Window> windows = budget.windows();
		long[] deltas = new long[reserved.length];
		long[] clamped = new long[reserved.length];
		for (int i = 0; i < deltas.length; i++) {
			Window w = windows.get(i);
			Long actual = w.countsRequests() ? null : actuals.get(w.unit());
			if (actual != null) {
				long counted = Math.min(actual, SettlementBounds.maxReport(w));
				clamped[i] = actual - counted;
				deltas[i] = counted - reserved[i];
			}
		}
		return Optional.of(new Settlement(budget, key, instances.clone(), deltas, clamped, degraded));
	}

	@Override
	public String toString() {
		return "Reservation[budget=" + budget.name() + ", key=" + key + ", estimates=" + estimates() + "]";
	}

}
