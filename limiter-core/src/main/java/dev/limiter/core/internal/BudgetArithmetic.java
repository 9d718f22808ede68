package dev.limiter.core.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.Settlement;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * One decision for any budget: a budget of fixed windows of requests only goes to
 * {@link FixedWindowArithmetic} (its tuned path); any other budget is decided here, each
 * window by its own algorithm's {@link WindowArithmetic}, and the concurrency bound as
 * for fixed windows, all in one step: the request is admitted only when every window and
 * the concurrency bound have room, and nothing is counted otherwise unless the budget
 * counts refusals.
 *
 * <p>
 * Pure with respect to time, like the per-algorithm classes; callers serialize access per
 * state.
 */
public final class BudgetArithmetic {

	/** {@link #admitAlone}'s arithmetic, each of its own class. */
	private static final SlidingWindows SLIDING = (SlidingWindows) WindowArithmetic.ByAlgorithm.ARITHMETIC[WindowAlgorithm.SLIDING_WINDOW
		.ordinal()];

	private static final TokenBuckets BUCKET = (TokenBuckets) WindowArithmetic.ByAlgorithm.ARITHMETIC[WindowAlgorithm.TOKEN_BUCKET
		.ordinal()];

	private BudgetArithmetic() {
	}

	/** Decides and counts one request against {@code state}, mutating it. */
	public static Decision take(Budget budget, String key, CounterState state, long cost, boolean expensive,
			long nowMillis, Supplier<String> leaseIds) {
		if (fixedOnly(budget)) {
			return FixedWindowArithmetic.take(budget, key, state, cost, expensive, nowMillis, leaseIds);
		}
		if (!budget.hasUnits()) {
			if (cost != 1) {
				// One unit always fits: every window's capacity is at least 1.
				budget.checkCost(cost);
			}
			if (windowsOnly(budget, expensive)) {
				Decision admitted = (budget.windows().size() == 1) ? admitAlone(budget, state, cost, nowMillis) : null;
				return (admitted != null) ? admitted : decideWindows(budget, state, cost, cost, nowMillis);
			}
			long[] amounts = new long[budget.windows().size()];
			Arrays.fill(amounts, cost);
			return decide(budget, key, state, amounts, expensive, nowMillis, leaseIds);
		}
		return reserve(budget, key, state, budget.amounts(cost, Map.of()), expensive, nowMillis, leaseIds);
	}

	/**
	 * Decides and counts one request taking {@code amounts[i]} from window {@code i}
	 * (RateLimitStore#reserve), mutating {@code state}.
	 */
	public static Decision reserve(Budget budget, String key, CounterState state, long[] amounts, boolean expensive,
			long nowMillis, Supplier<String> leaseIds) {
		budget.checkAmounts(amounts);
		if (windowsOnly(budget, expensive)) {
			return decideWindows(budget, state, amounts[0], (amounts.length > 1) ? amounts[1] : 0, nowMillis);
		}
		return decide(budget, key, state, amounts, expensive, nowMillis, leaseIds);
	}

	/**
	 * Applies {@code settlement} to {@code state} at {@code nowMillis}: each window's
	 * delta goes to the instance it was reserved in when that instance still counts
	 * ({@link Settlement#lands}) and is still the one stored, saturating as
	 * {@link SettlementBounds} says: never below zero, never wrapping.
	 * @return the {@code notify-at} thresholds the settlement reached in the windows it
	 * applied a delta to ({@link ThresholdCrossings#settled})
	 */
	public static List<ThresholdCrossing> settle(CounterState state, Settlement settlement, long nowMillis) {
		List<Window> windows = settlement.windows();
		long[] deltas = settlement.deltas();
		long[] instances = settlement.instances();
		boolean[] sent = settlement.budget().notifies() ? new boolean[windows.size()] : null;
		for (int i = 0; i < windows.size(); i++) {
			Window w = windows.get(i);
			long delta = SettlementBounds.clampDelta(w, deltas[i]);
			if (delta == 0 || !settlement.lands(i, nowMillis)) {
				continue;
			}
			WindowArithmetic.of(w).settle(w, state, i, instances[i], delta, nowMillis);
			if (sent != null) {
				sent[i] = true;
			}
		}
		return (sent != null) ? ThresholdCrossings.settled(settlement, state, sent) : List.of();
	}

	/**
	 * Reads the counters at {@code nowMillis} without changing them, as
	 * {@link FixedWindowArithmetic#peek} does.
	 * @param state the key's counters, {@code null} when the store holds none
	 */
	public static KeyState peek(Budget budget, String key, CounterState state, long nowMillis) {
		if (fixedOnly(budget)) {
			return FixedWindowArithmetic.peek(budget, key, state, nowMillis);
		}
		long[] ones = new long[budget.windows().size()];
		Arrays.fill(ones, 1);
		Decision dryRun = decide(budget, key, state, ones, true, nowMillis, null);
		return new KeyState(budget.name(), key, dryRun.verdicts());
	}

	/**
	 * Whether {@code budget} takes {@link FixedWindowArithmetic}'s tuned path: fixed
	 * windows of requests only, none with {@code notify-at} thresholds (which only
	 * {@link #decide} looks for).
	 */
	private static boolean fixedOnly(Budget budget) {
		return budget.allFixed() && !budget.hasUnits() && !budget.notifies();
	}

	/**
	 * Whether a decision of {@code budget} is {@link #decideWindows}' case: one or two
	 * windows, no concurrency bound taking part, and no {@code notify-at} threshold to
	 * look for after counting ({@link ThresholdCrossings}, which only {@link #decide}
	 * asks).
	 */
	private static boolean windowsOnly(Budget budget, boolean expensive) {
		return budget.windows().size() <= 2 && !(expensive && budget.concurrency().isPresent()) && !budget.notifies();
	}

	/**
	 * {@link #decide} for its usual case ({@link #windowsOnly}), not a dry run: the same
	 * steps, the readings held in locals rather than arrays, so that nothing is allocated
	 * but the verdicts and the decision; an admission's verdicts are left to each
	 * algorithm's {@link WindowArithmetic#admissionRule()}, made when a caller reads
	 * them.
	 * @param secondCost the second window's amount; ignored for one window
	 */
	private static Decision decideWindows(Budget budget, CounterState state, long firstCost, long secondCost,
			long nowMillis) {
		List<Window> windows = budget.windows();
		Window first = windows.get(0);
		WindowArithmetic firstArithmetic = WindowArithmetic.of(first);
		WindowArithmetic.Reading firstReading = firstArithmetic.read(first, state, 0, firstCost, false, nowMillis);
		boolean room = firstReading.room();
		Window second = null;
		WindowArithmetic secondArithmetic = null;
		WindowArithmetic.Reading secondReading = null;
		if (windows.size() == 2) {
			second = windows.get(1);
			secondArithmetic = WindowArithmetic.of(second);
			secondReading = secondArithmetic.read(second, state, 1, secondCost, false, nowMillis);
			room &= secondReading.room();
		}
		state.shape = null;
		if (room) {
			// Counted in the same order as below; each window's numbers are its own.
			long firstExtra = firstArithmetic.countAdmitted(first, state, 0, firstReading, firstCost, nowMillis);
			long secondExtra = (second == null) ? 0
					: secondArithmetic.countAdmitted(second, state, 1, secondReading, secondCost, nowMillis);
			return Decision.admitted(budget, nowMillis, firstArithmetic.admissionRule(),
					firstReading.before() + firstCost, state.reset(0), firstExtra,
					(second == null) ? null : secondArithmetic.admissionRule(),
					(second == null) ? 0 : secondReading.before() + secondCost, (second == null) ? 0 : state.reset(1),
					secondExtra);
		}
		boolean counts = budget.countRefused();
		BoundVerdict firstVerdict = firstArithmetic.count(first, state, 0, firstReading, firstCost, counts, nowMillis);
		List<BoundVerdict> verdicts = (second == null) ? List.of(firstVerdict) : List.of(firstVerdict,
				secondArithmetic.count(second, state, 1, secondReading, secondCost, counts, nowMillis));
		return Decision.of(budget.name(), nowMillis, verdicts, null);
	}

	/**
	 * {@link #decideWindows} for an admission by a budget of one sliding window or token
	 * bucket, the usual case, small enough for the compiler to inline: the algorithm's
	 * own {@code admitAlone}, bound to its class rather than called through
	 * {@link WindowArithmetic}, where a store deciding several algorithms would make
	 * every call a lookup that nothing is inlined across. {@code null}, with nothing
	 * changed, when the window has no room or is of another algorithm.
	 */
	private static Decision admitAlone(Budget budget, CounterState state, long cost, long nowMillis) {
		Window window = budget.windows().get(0);
		WindowAlgorithm algorithm = window.algorithm();
		Decision admitted;
		if (algorithm == WindowAlgorithm.SLIDING_WINDOW) {
			admitted = SLIDING.admitAlone(budget, window, state, cost, nowMillis);
		}
		else if (algorithm == WindowAlgorithm.TOKEN_BUCKET) {
			admitted = BUCKET.admitAlone(budget, window, state, cost, nowMillis);
		}
		else {
			return null;
		}
		if (admitted != null && state.shape != null) {
			// as decideWindows: what the fixed windows' tuned path vouches for is gone
			state.shape = null;
		}
		return admitted;
	}

	/** Without {@code leaseIds}, a dry run that writes nothing. */
	private static Decision decide(Budget budget, String key, CounterState state, long[] costs, boolean expensive,
			long nowMillis, Supplier<String> leaseIds) {
		boolean dryRun = leaseIds == null;
		List<Window> windows = budget.windows();
		int n = windows.size();
		WindowArithmetic[] arithmetic = new WindowArithmetic[n];
		WindowArithmetic.Reading[] readings = new WindowArithmetic.Reading[n];
		boolean roomInWindows = true;
		for (int i = 0; i < n; i++) {
			Window w = windows.get(i);
			arithmetic[i] = WindowArithmetic.of(w);
			readings[i] = arithmetic[i].read(w, state, i, costs[i], dryRun, nowMillis);
			roomInWindows &= readings[i].room();
		}
		if (!dryRun) {
			state.shape = null;
		}

		ConcurrencyBound bound = expensive ? budget.concurrency().orElse(null) : null;
		int held = 0;
		if (bound != null && state != null) {
			if (!dryRun) {
				state.dropExpiredLeases(nowMillis);
			}
			held = FixedWindowArithmetic.liveLeases(state, nowMillis);
		}
		boolean leaseFree = bound == null || held < bound.max();
		boolean admitted = roomInWindows && leaseFree && !dryRun;
		boolean counts = !dryRun && (admitted || budget.countRefused());

		BoundVerdict[] verdicts = new BoundVerdict[(bound != null) ? n + 1 : n];
		for (int i = 0; i < n; i++) {
			verdicts[i] = arithmetic[i].count(windows.get(i), state, i, readings[i], costs[i], counts, nowMillis);
		}
		Lease lease = null;
		if (bound != null) {
			if (admitted) {
				lease = new Lease(budget.name(), key, leaseIds.get(), nowMillis + bound.leaseMillis());
				state.addLease(lease.id(), lease.expiresAtMillis());
				held++;
			}
			verdicts[n] = BoundVerdict.concurrency(bound, held,
					FixedWindowArithmetic.earliestLiveLease(state, nowMillis), !leaseFree);
		}
		Decision decision = Decision.of(budget.name(), nowMillis, List.of(verdicts), lease);
		List<ThresholdCrossing> crossings = dryRun ? List.of() : ThresholdCrossings.reached(budget, key, state);
		return crossings.isEmpty() ? decision : decision.withCrossings(crossings);
	}

}
