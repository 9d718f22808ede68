package dev.limiter.core.internal;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters in this process, striped over segments that each hold an access-ordered map under its own lock.
 *
 * <p>Bounded: the segments together never hold more than {@code maxKeys} keys. When a segment is full its
 * least recently used key goes first, and keys whose windows have all ended and whose leases have all
 * expired are swept from the cold end as traffic passes. Evicting a live key forgets its counts: the bound
 * on memory wins over exactness for keys nobody has touched for longest.
 */
public final class InMemoryRateLimitStore implements RateLimitStore {

    private static final int MAX_SEGMENTS = 64;
    private static final int MAX_REMEMBERED_OVER_LIMIT = 10_000;
    private static final int SWEEP_STEPS = 8;
    /** A segment sweeps once every this many decisions (a power of two), keeping the hot path short. */
    private static final int SWEEP_EVERY = 16;

    private final Segment[] segments;
    private final int segmentMask;
    private final int maxKeys;
    private final String leaseIdPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";
    private final AtomicLong leaseSequence = new AtomicLong();
    /** Keys over a window, refused without taking a segment's lock until that window resets. */
    private final OverLimitMemory overLimit;

    public InMemoryRateLimitStore(int maxKeys) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("max-keys must be at least 1, was " + maxKeys);
        }
        this.maxKeys = maxKeys;
        int count = Integer.highestOneBit(Math.min(MAX_SEGMENTS, maxKeys));
        this.segments = new Segment[count];
        for (int i = 0; i < count; i++) {
            segments[i] = new Segment(maxKeys / count);
        }
        this.segmentMask = count - 1;
        this.overLimit = new OverLimitMemory(Math.max(1, Math.min(maxKeys, MAX_REMEMBERED_OVER_LIMIT)));
    }

    @Override
    public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
        budget.checkCost(cost);
        boolean rememberable = !budget.countRefused() && !(expensive && budget.concurrency().isPresent());
        if (rememberable) {
            Decision remembered = overLimit.refuse(budget, key, cost, nowMillis);
            if (remembered != null) {
                return remembered;
            }
        }
        return takeLocked(budget, key, cost, expensive, nowMillis, rememberable);
    }

    /**
     * Only an exhausted window is worth remembering; while one is remembered no request of its key is admitted,
     * so a decision with room everywhere never needs to make the memory forget anything.
     */
    private static boolean hasExhaustedWindow(Decision decision) {
        for (BoundVerdict verdict : decision.verdicts()) {
            if (!verdict.concurrency() && verdict.remaining() == 0) {
                return true;
            }
        }
        return false;
    }

    private Decision takeLocked(Budget budget, String key, long cost, boolean expensive, long nowMillis,
                                boolean rememberable) {
        StoreKey storeKey = new StoreKey(budget.name(), key);
        Segment segment = segmentFor(storeKey);
        synchronized (segment) {
            CounterState state = segment.map.get(storeKey);
            if (state == null || state.windowCount() != budget.windows().size()) {
                state = new CounterState(budget.windows().size());
                segment.map.put(storeKey, state);
            }
            Decision decision = FixedWindowArithmetic.take(budget, key, state, cost, expensive, nowMillis,
                    this::nextLeaseId);
            // Learned under the key's lock, so that a reset of the key cannot slip between decision and memory.
            if (rememberable && hasExhaustedWindow(decision)) {
                overLimit.learn(budget, key, decision);
            }
            segment.sweep(nowMillis);
            return decision;
        }
    }

    @Override
    public void release(Lease lease, long nowMillis) {
        StoreKey storeKey = new StoreKey(lease.budget(), lease.key());
        Segment segment = segmentFor(storeKey);
        synchronized (segment) {
            CounterState state = segment.map.get(storeKey);
            if (state != null) {
                state.removeLease(lease.id());
            }
        }
    }

    @Override
    public KeyState peek(Budget budget, String key, long nowMillis) {
        StoreKey storeKey = new StoreKey(budget.name(), key);
        Segment segment = segmentFor(storeKey);
        synchronized (segment) {
            CounterState state = segment.map.get(storeKey);
            if (state != null && state.windowCount() != budget.windows().size()) {
                state = null;
            }
            return FixedWindowArithmetic.peek(budget, key, state, nowMillis);
        }
    }

    @Override
    public void reset(Budget budget, String key) {
        StoreKey storeKey = new StoreKey(budget.name(), key);
        Segment segment = segmentFor(storeKey);
        synchronized (segment) {
            overLimit.forget(budget.name(), key);
            segment.map.remove(storeKey);
        }
    }

    @Override
    public String name() {
        return "memory";
    }

    /** Keys held right now, across every segment. */
    public int size() {
        int size = 0;
        for (Segment segment : segments) {
            synchronized (segment) {
                size += segment.map.size();
            }
        }
        return size;
    }

    /** Whether this store issued {@code lease} (lease ids carry a prefix unique to the store). */
    public boolean issued(Lease lease) {
        return lease.id().startsWith(leaseIdPrefix);
    }

    public int maxKeys() {
        return maxKeys;
    }

    private Segment segmentFor(StoreKey key) {
        // Fibonacci hashing: the top bits of the product are well mixed even for sequential string keys.
        int h = key.hashCode() * 0x9E3779B9;
        return segments[(h >>> 16) & segmentMask];
    }

    private String nextLeaseId() {
        return leaseIdPrefix + Long.toHexString(leaseSequence.incrementAndGet());
    }

    private static final class StoreKey {
        final String budget;
        final String key;
        final int hash;

        StoreKey(String budget, String key) {
            this.budget = budget;
            this.key = key;
            this.hash = 31 * budget.hashCode() + key.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StoreKey other && hash == other.hash && key.equals(other.key)
                    && budget.equals(other.budget);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private static final class Segment {

        final LinkedHashMap<StoreKey, CounterState> map;
        int decisions;

        Segment(int capacity) {
            this.map = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<StoreKey, CounterState> eldest) {
                    return size() > capacity;
                }
            };
        }

        /** Drops a few idle keys from the cold end, so expired counters do not wait for eviction. */
        void sweep(long nowMillis) {
            if ((++decisions & (SWEEP_EVERY - 1)) != 0) {
                return;
            }
            Iterator<CounterState> it = map.values().iterator();
            for (int step = 0; step < SWEEP_STEPS && it.hasNext(); step++) {
                CounterState candidate = it.next();
                if (!candidate.isIdle(nowMillis)) {
                    return;
                }
                it.remove();
            }
        }
    }
}
