package dev.limiter.core.internal;

import java.util.List;
import java.util.function.Supplier;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.Window;

/**
 * The limiter's rule, once, in Java: fixed wall-clock windows, cost, concurrency leases
 * with expiry, refused-not-counted unless the budget counts refusals. The Redis store's
 * Lua script is the only other implementation; the shared contract suite and a
 * differential test hold the two equal.
 *
 * <p>
 * Pure with respect to time: every method takes {@code nowMillis}. Callers serialize
 * access per state.
 */
public final class FixedWindowArithmetic {

	private FixedWindowArithmetic() {
	}

	/** Decides and counts one request against {@code state}, mutating it. */
	public static Decision take(Budget budget, String key, CounterState state, long cost, boolean expensive,
			long nowMillis, Supplier<String> leaseIds) {
		if (cost != 1) {
			// One unit always fits: every window's limit is at least 1.
			budget.checkCost(cost);
		}
		Decision admitted = admitWithinWindows(budget, state, cost, expensive, nowMillis);
		return (admitted != null) ? admitted : decide(budget, key, state, cost, expensive, nowMillis, leaseIds);
	}

	/**
	 * {@link #decide} for its most common case, small enough for the compiler to inline
	 * where {@code decide} is not: a budget of one or two windows, no lease to take,
	 * every window still the one counted in last (its stored reset lies within one window
	 * length after now, which {@link CounterState#shape} vouches for) and room in each.
	 * Then {@code decide} would move no window and admit; this counts the same units and
	 * answers the same decision. Anything else returns {@code null} without having
	 * changed the state.
	 */
	private static Decision admitWithinWindows(Budget budget, CounterState state, long cost, boolean expensive,
			long nowMillis) {
		List<Window> windows = budget.windows();
		int n = windows.size();
		if (state.shape != windows || n > 2 || (expensive && budget.concurrency().isPresent())) {
			return null;
		}
		Window first = windows.get(0);
		long firstReset = state.reset(0);
		long firstBefore = state.count(0);
		if (!counting(first, firstReset, firstBefore, cost, nowMillis)) {
			return null;
		}
		long secondReset = 0;
		long secondBefore = 0;
		if (n == 2) {
			secondReset = state.reset(1);
			secondBefore = state.count(1);
			if (!counting(windows.get(1), secondReset, secondBefore, cost, nowMillis)) {
				return null;
			}
			state.count(1, secondBefore + cost);
		}
		state.count(0, firstBefore + cost);
		// Decision.admitted by counts would check them again: counting() did.
		return Decision.admitted(budget, nowMillis, AdmissionRule.FIXED_WINDOW, firstBefore + cost, firstReset, 0,
				AdmissionRule.FIXED_WINDOW, (n == 2) ? secondBefore + cost : 0, secondReset, 0);
	}

	/**
	 * Whether the window that ends at {@code reset} with {@code before} counted still
	 * counts at {@code nowMillis} (as {@link #decide} recognises it without a division)
	 * and has room for {@code cost}.
	 */
	private static boolean counting(Window window, long reset, long before, long cost, long nowMillis) {
		return reset > nowMillis && reset - window.durationMillis() <= nowMillis && cost <= window.limit() - before;
	}

	/**
	 * Reads the counters at {@code nowMillis} without changing them: {@link #take} in
	 * dry-run mode for one unit that would need a lease, so every bound shows whether one
	 * more request would be refused now.
	 * @param state the key's counters, {@code null} when the store holds none
	 */
	public static KeyState peek(Budget budget, String key, CounterState state, long nowMillis) {
		Decision dryRun = decide(budget, key, state, 1, true, nowMillis, null);
		return new KeyState(budget.name(), key, dryRun.verdicts());
	}

	/**
	 * The rule, once. A window that has ended starts again from zero; a clock that went
	 * backwards keeps counting in the newest window seen. Without {@code leaseIds} this
	 * is a dry run: {@code state} (which may then be {@code null}) is read, never
	 * written, and nothing is counted or leased.
	 */
	private static Decision decide(Budget budget, String key, CounterState state, long cost, boolean expensive,
			long nowMillis, Supplier<String> leaseIds) {
		boolean dryRun = leaseIds == null;
		List<Window> windows = budget.windows();
		int n = windows.size();
		boolean roomInWindows = true;
		// While the state's shape is these windows, every stored reset is a multiple of
		// its window's length: one that lies within a window's length after now is the
		// end of the window containing now, found without a division.
		boolean sameShape = state != null && state.shape == windows;
		boolean multiples = true;
		for (int i = 0; i < n; i++) {
			Window w = windows.get(i);
			long before;
			if (dryRun) {
				before = countedIn(w, state, i, nowMillis);
			}
			else {
				// The state moves to the window that counts now here, even for a request
				// refused: a refusal still moves the key to the newest window.
				long stored = state.reset(i);
				long reset = (sameShape && stored > nowMillis && stored - w.durationMillis() <= nowMillis) ? stored
						: w.resetAt(nowMillis);
				if (stored >= reset) {
					before = state.count(i);
					multiples &= sameShape || stored == reset;
				}
				else {
					state.restart(i, reset);
					before = 0;
				}
			}
			// subtraction, not addition: count + cost must not overflow into an admission
			roomInWindows &= cost <= w.limit() - before;
		}
		if (!dryRun) {
			state.shape = multiples ? windows : null;
		}

		ConcurrencyBound bound = expensive ? budget.concurrency().orElse(null) : null;
		int held = 0;
		if (bound != null && state != null) {
			if (!dryRun) {
				state.dropExpiredLeases(nowMillis);
			}
			held = liveLeases(state, nowMillis);
		}
		boolean leaseFree = bound == null || held < bound.max();

		boolean admitted = roomInWindows && leaseFree && !dryRun;
		boolean counts = !dryRun && (admitted || budget.countRefused());
		Lease lease = null;
		BoundVerdict concurrency = null;
		if (bound != null) {
			if (admitted) {
				lease = new Lease(budget.name(), key, leaseIds.get(), nowMillis + bound.leaseMillis());
				state.addLease(lease.id(), lease.expiresAtMillis());
				held++;
			}
			concurrency = BoundVerdict.concurrency(bound, held, earliestLiveLease(state, nowMillis), !leaseFree);
		}
		if (admitted && concurrency == null && n <= 2) {
			// The usual admission: counted here, its verdicts made only if asked for.
			long first = count(state, 0, cost);
			long second = (n == 2) ? count(state, 1, cost) : 0;
			return Decision.admitted(budget, nowMillis, AdmissionRule.FIXED_WINDOW, first, state.reset(0), 0,
					AdmissionRule.FIXED_WINDOW, second, (n == 2) ? state.reset(1) : 0, 0);
		}
		// The usual one or two windows go straight into a list, without an array to copy.
		List<BoundVerdict> verdicts;
		if (n == 1) {
			BoundVerdict first = verdict(windows, state, 0, cost, dryRun, counts, nowMillis);
			verdicts = (concurrency != null) ? List.of(first, concurrency) : List.of(first);
		}
		else if (n == 2) {
			BoundVerdict first = verdict(windows, state, 0, cost, dryRun, counts, nowMillis);
			BoundVerdict second = verdict(windows, state, 1, cost, dryRun, counts, nowMillis);
			verdicts = (concurrency != null) ? List.of(first, second, concurrency) : List.of(first, second);
		}
		else {
			BoundVerdict[] all = new BoundVerdict[(concurrency != null) ? n + 1 : n];
			for (int i = 0; i < n; i++) {
				all[i] = verdict(windows, state, i, cost, dryRun, counts, nowMillis);
			}
			if (concurrency != null) {
				all[n] = concurrency;
			}
			verdicts = List.of(all);
		}
		return Decision.of(budget.name(), nowMillis, verdicts, lease);
	}

	/**
	 * How window {@code i} stands once the decision counted ({@code counts}) or not, and
	 * the count written when it did. Outside a dry run the first pass already moved the
	 * state to the window that counts now.
	 */
	private static BoundVerdict verdict(List<Window> windows, CounterState state, int i, long cost, boolean dryRun,
			boolean counts, long nowMillis) {
		Window w = windows.get(i);
		long reset = dryRun ? resetOf(w, state, i, nowMillis) : state.reset(i);
		long before = dryRun ? countedIn(w, state, i, nowMillis) : state.count(i);
		long after = counts ? before + cost : before;
		if (counts) {
			state.count(i, after);
		}
		return BoundVerdict.window(w, after, reset, cost > w.limit() - before);
	}

	/**
	 * Counts an admitted request in window {@code i}, which the first pass already moved
	 * to the window that counts now.
	 * @return the window's count with the request
	 */
	private static long count(CounterState state, int i, long cost) {
		long after = state.count(i) + cost;
		state.count(i, after);
		return after;
	}

	/**
	 * The end of window {@code i} that counts at {@code nowMillis}: the one containing
	 * now, or the stored one when that is the same or newer (a clock that went backwards
	 * keeps counting in the newest window seen).
	 */
	static long resetOf(Window w, CounterState state, int i, long nowMillis) {
		long reset = w.resetAt(nowMillis);
		return state != null && state.reset(i) >= reset ? state.reset(i) : reset;
	}

	/**
	 * Units counted in the window {@link #resetOf} names; zero when that window has not
	 * been counted in yet.
	 */
	static long countedIn(Window w, CounterState state, int i, long nowMillis) {
		return state != null && state.reset(i) >= w.resetAt(nowMillis) ? state.count(i) : 0;
	}

	static int liveLeases(CounterState state, long nowMillis) {
		int held = 0;
		for (int i = 0; i < state.leaseCount; i++) {
			if (state.leaseExpiries[i] > nowMillis) {
				held++;
			}
		}
		return held;
	}

	/**
	 * The earliest expiry among the leases still live at {@code nowMillis};
	 * {@code nowMillis} when none is.
	 */
	static long earliestLiveLease(CounterState state, long nowMillis) {
		long earliest = Long.MAX_VALUE;
		if (state != null) {
			for (int i = 0; i < state.leaseCount; i++) {
				if (state.leaseExpiries[i] > nowMillis) {
					earliest = Math.min(earliest, state.leaseExpiries[i]);
				}
			}
		}
		return earliest == Long.MAX_VALUE ? nowMillis : earliest;
	}

}
