package dev.limiter.core.internal;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers, per (budget, key), a window that the store reported exhausted, so that later requests are refused
 * without asking the store (a Redis round trip, or the in-memory store's lock) until the earliest reset among
 * the budget's windows.
 *
 * <p>Exact for budgets that do not count refusals: while one window has nothing left, no request of that key
 * can be admitted anywhere, so no count of that key moves until that window resets; the remembered window
 * verdicts stay what the store would answer, and {@link Decision#of} turns them into the same decision. Only
 * windows are remembered: a request that needs a concurrency lease still asks the store, since leases come and
 * go. Callers skip it for budgets that count refusals, and forget a key they reset.
 *
 * <p>Bounded: at most {@code maxEntries}; when full, entries whose windows have reset are dropped (at most
 * once per second of decision time), and if it is still full the newest refusal is simply not remembered.
 */
public final class OverLimitMemory {

    private static final long PURGE_INTERVAL_MILLIS = 1_000;

    private final Map<Entry.Id, Entry> entries = new ConcurrentHashMap<>();
    private final int maxEntries;
    private volatile long lastPurgeMillis = Long.MIN_VALUE;

    public OverLimitMemory(int maxEntries) {
        if (maxEntries < 0) {
            throw new IllegalArgumentException("local over-limit memory size must not be negative, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /**
     * The decision the store would give for this request, when a remembered exhausted window still holds at
     * {@code nowMillis}; {@code null} when the store must be asked.
     */
    public Decision refuse(Budget budget, String key, long cost, long nowMillis) {
        if (maxEntries == 0 || entries.isEmpty()) {
            return null;
        }
        Entry.Id id = new Entry.Id(budget.name(), key);
        Entry entry = entries.get(id);
        if (entry == null) {
            return null;
        }
        if (!entry.budget.equals(budget) || nowMillis >= entry.validUntilMillis) {
            entries.remove(id, entry);
            return null;
        }
        if (nowMillis < entry.seenAtMillis) {
            return null;
        }
        if (cost == 1) {
            return Decision.of(budget.name(), nowMillis, entry.windows, null);
        }
        List<BoundVerdict> verdicts = new ArrayList<>(entry.windows.size());
        for (BoundVerdict w : entry.windows) {
            verdicts.add(new BoundVerdict(w.name(), false, w.limit(), w.remaining(), w.resetAtMillis(),
                    w.periodMillis(), w.remaining() < cost));
        }
        return Decision.of(budget.name(), nowMillis, verdicts, null);
    }

    /** Learns from a decision the store just made: remembers the key if a window has nothing left, else forgets it. */
    public void learn(Budget budget, String key, Decision decision) {
        if (maxEntries == 0) {
            return;
        }
        Entry.Id id = new Entry.Id(budget.name(), key);
        List<BoundVerdict> windows = new ArrayList<>(budget.windows().size());
        boolean exhausted = false;
        long validUntil = Long.MAX_VALUE;
        for (BoundVerdict v : decision.verdicts()) {
            if (!v.concurrency()) {
                // Kept as the verdicts of a one-unit request: the common case needs no copy.
                windows.add(new BoundVerdict(v.name(), false, v.limit(), v.remaining(), v.resetAtMillis(),
                        v.periodMillis(), v.remaining() < 1));
                exhausted |= v.remaining() == 0;
                validUntil = Math.min(validUntil, v.resetAtMillis());
            }
        }
        if (!exhausted) {
            entries.remove(id);
            return;
        }
        long now = decision.decidedAtMillis();
        if (entries.size() >= maxEntries && !entries.containsKey(id)) {
            purgeExpired(now);
            if (entries.size() >= maxEntries) {
                return;
            }
        }
        entries.put(id, new Entry(budget, List.copyOf(windows), now, validUntil));
    }

    public void forget(String budget, String key) {
        entries.remove(new Entry.Id(budget, key));
    }

    public int size() {
        return entries.size();
    }

    private void purgeExpired(long nowMillis) {
        if (nowMillis - lastPurgeMillis < PURGE_INTERVAL_MILLIS && lastPurgeMillis != Long.MIN_VALUE) {
            return;
        }
        lastPurgeMillis = nowMillis;
        entries.values().removeIf(e -> e.validUntilMillis <= nowMillis);
    }

    private record Entry(Budget budget, List<BoundVerdict> windows, long seenAtMillis, long validUntilMillis) {
        private record Id(String budget, String key) {
        }
    }
}
