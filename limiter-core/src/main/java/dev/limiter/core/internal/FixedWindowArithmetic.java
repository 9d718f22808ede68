package dev.limiter.core.internal;

import dev.limiter.core.BoundNames;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.Window;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The rule of ADR 0001, once, in Java: fixed wall-clock windows, cost, concurrency leases with expiry,
 * refused-not-counted unless the budget counts refusals. The Redis store's Lua script is the only other
 * implementation; the shared contract suite and a differential test hold the two equal.
 *
 * <p>Pure with respect to time: every method takes {@code nowMillis}. Callers serialize access per state.
 */
public final class FixedWindowArithmetic {

    private FixedWindowArithmetic() {
    }

    /** Decides and counts one request against {@code state}, mutating it. */
    public static Decision take(Budget budget, String key, CounterState state, long cost, boolean expensive,
                                long nowMillis, Supplier<String> leaseIds) {
        budget.checkCost(cost);
        List<Window> windows = budget.windows();
        int n = windows.size();
        boolean roomInWindows = true;
        for (int i = 0; i < n; i++) {
            Window w = windows.get(i);
            roll(w, state, i, nowMillis);
            // subtraction, not addition: count + cost must not overflow into an admission
            roomInWindows &= cost <= w.limit() - state.windows[2 * i + 1];
        }

        ConcurrencyBound bound = expensive ? budget.concurrency().orElse(null) : null;
        boolean leaseFree = true;
        if (bound != null) {
            state.dropExpiredLeases(nowMillis);
            leaseFree = state.leaseCount < bound.max();
        }

        boolean admitted = roomInWindows && leaseFree;
        boolean counts = admitted || budget.countRefused();
        BoundVerdict[] verdicts = new BoundVerdict[bound == null ? n : n + 1];
        for (int i = 0; i < n; i++) {
            Window w = windows.get(i);
            long reset = state.windows[2 * i];
            long before = state.windows[2 * i + 1];
            long after = counts ? before + cost : before;
            state.windows[2 * i + 1] = after;
            verdicts[i] = new BoundVerdict(w.name(), false, w.limit(), Math.max(0, w.limit() - after), reset,
                    w.durationMillis(), cost > w.limit() - before);
        }
        Lease lease = null;
        if (admitted && bound != null) {
            lease = new Lease(budget.name(), key, leaseIds.get(), nowMillis + bound.leaseMillis());
            state.addLease(lease.id(), lease.expiresAtMillis());
        }
        if (bound != null) {
            verdicts[n] = concurrencyVerdict(bound, state, nowMillis, !leaseFree);
        }
        return Decision.of(budget.name(), nowMillis, List.of(verdicts), lease);
    }

    /**
     * Moves window {@code i} of the state to the window that counts at {@code nowMillis}: a window that has ended
     * starts again from zero. A clock that went backwards keeps counting in the newest window seen.
     */
    private static void roll(Window w, CounterState state, int i, long nowMillis) {
        long reset = w.resetAt(nowMillis);
        if (reset > state.windows[2 * i]) {
            state.windows[2 * i] = reset;
            state.windows[2 * i + 1] = 0;
        }
    }

    /** Reads the counters at {@code nowMillis} without changing them. */
    public static KeyState peek(Budget budget, String key, CounterState state, long nowMillis) {
        List<Window> windows = budget.windows();
        List<BoundVerdict> bounds = new ArrayList<>(windows.size() + 1);
        for (int i = 0; i < windows.size(); i++) {
            Window w = windows.get(i);
            long count = 0;
            long reset = w.resetAt(nowMillis);
            if (state != null) {
                long storedReset = state.windows[2 * i];
                reset = Math.max(reset, storedReset);
                count = reset == storedReset ? state.windows[2 * i + 1] : 0;
            }
            bounds.add(new BoundVerdict(w.name(), false, w.limit(), Math.max(0, w.limit() - count),
                    reset, w.durationMillis(), count + 1 > w.limit()));
        }
        budget.concurrency().ifPresent(bound -> {
            int held = 0;
            long earliest = nowMillis;
            if (state != null) {
                long min = Long.MAX_VALUE;
                for (int i = 0; i < state.leaseCount; i++) {
                    if (state.leaseExpiries[i] > nowMillis) {
                        held++;
                        min = Math.min(min, state.leaseExpiries[i]);
                    }
                }
                earliest = held == 0 ? nowMillis : min;
            }
            bounds.add(new BoundVerdict(BoundNames.CONCURRENCY, true, bound.max(), Math.max(0, bound.max() - held),
                    earliest, bound.leaseMillis(), held >= bound.max()));
        });
        return new KeyState(budget.name(), key, bounds);
    }

    private static BoundVerdict concurrencyVerdict(ConcurrencyBound bound, CounterState state, long nowMillis,
                                                   boolean refused) {
        return new BoundVerdict(BoundNames.CONCURRENCY, true, bound.max(), Math.max(0, bound.max() - state.leaseCount),
                state.earliestLeaseExpiry(nowMillis), bound.leaseMillis(), refused);
    }
}
