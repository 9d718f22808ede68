package dev.limiter.core.internal;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Counters in this process: a lock-free index finds a key's entry, whose own lock
 * serializes its decisions; segments own the keys for eviction.
 *
 * <p>
 * Bounded: the store never holds more than {@code maxKeys} keys, in two partitions.
 * Address keys (a caller without a credential, {@code a:}, and the authentication guard's
 * per-address pending and failure counters) are one; everything else (credential and
 * principal counters, guard blocks) the other. When the store is full an address key only
 * ever evicts another address key, while any other key evicts an address key first: a
 * flood of addresses can never evict a credential's counters or a guard block, and
 * credentials may use every key. Within a partition, when a segment is full the key its
 * eviction clock settles on goes first (least recently used, approximately: see
 * {@link Segment}), and keys whose windows have all ended and whose leases have all
 * expired at least {@link #EXPIRY_MARGIN_MILLIS} ago are swept as new keys arrive.
 * Evicting a live key forgets its counts: the bound on memory wins over exactness for
 * keys nobody has used for longest.
 *
 * <p>
 * A new key's segment comes from SipHash-2-4 keyed with a per-process random seed, so a
 * caller who can choose keys (addresses in a large IPv6 prefix, say) cannot aim them at
 * one segment to evict a chosen key. The keyed hash is computed once per key, when it
 * enters the store; a decision on a known key finds it through a
 * {@link ConcurrentHashMap} per budget keyed by the key string itself. That index cannot
 * be degraded by chosen {@code String.hashCode} collisions either: the map turns a
 * crowded bin into a tree ordered by the (comparable) strings, so a lookup stays
 * logarithmic, and which key is evicted never depends on that hash.
 */
public final class InMemoryRateLimitStore implements RateLimitStore {

	private static final int MAX_SEGMENTS = 64;

	/**
	 * How long a key is kept after its windows ended and its leases expired, like the
	 * Redis store's default expiry margin: a clock that goes back by less than this still
	 * counts in the newest window the key saw.
	 */
	static final long EXPIRY_MARGIN_MILLIS = 2_000;

	/**
	 * Budgets of the authentication guard whose keys are per address but are not a block.
	 */
	private static final Set<String> GUARD_ADDRESS_BUDGETS = Set.of("auth-guard-pending", "auth-guard-failures");

	/** Per budget name, its keys' entries. */
	private final Map<String, Map<String, StoreEntry>> index = new ConcurrentHashMap<>();

	private final Segment[] segments;

	private final Segment[] addressSegments;

	/** Keys held across both partitions. */
	private final AtomicInteger held = new AtomicInteger();

	/**
	 * Where a credential key that finds the store full looks first for an address key to
	 * evict.
	 */
	private final AtomicInteger addressCursor = new AtomicInteger();

	private final int segmentMask;

	private final int maxKeys;

	private final String leaseIdPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";

	private final AtomicLong leaseSequence = new AtomicLong();

	/** Made once: a method reference per decision would be an allocation per decision. */
	private final Supplier<String> leaseIds = this::nextLeaseId;

	public InMemoryRateLimitStore(int maxKeys) {
		if (maxKeys < 1) {
			throw new IllegalArgumentException("max-keys must be at least 1, was " + maxKeys);
		}
		this.maxKeys = maxKeys;
		int count = Integer.highestOneBit(Math.min(MAX_SEGMENTS, maxKeys));
		this.segments = new Segment[count];
		this.addressSegments = new Segment[count];
		for (int i = 0; i < count; i++) {
			segments[i] = new Segment(maxKeys / count, held);
			addressSegments[i] = new Segment(maxKeys / count, held);
		}
		this.segmentMask = count - 1;
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		Map<String, StoreEntry> home = home(budget.name());
		StoreEntry entry = home.get(key);
		if (entry != null) {
			entry.lock();
			try {
				if (!entry.removed) {
					return decide(entry, budget, key, cost, expensive, nowMillis);
				}
			}
			finally {
				entry.unlock();
			}
		}
		return insertAndTake(home, budget, key, cost, expensive, nowMillis);
	}

	@Override
	public void release(Lease lease, long nowMillis) {
		StoreEntry entry = find(lease.budget(), lease.key());
		if (entry != null) {
			entry.lock();
			try {
				// A removed entry took its leases with it.
				entry.removeLease(lease.id());
			}
			finally {
				entry.unlock();
			}
		}
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		StoreEntry entry = find(budget.name(), key);
		while (entry != null) {
			entry.lock();
			try {
				if (!entry.removed) {
					CounterState state = entry.windowCount() == budget.windows().size() ? entry : null;
					return FixedWindowArithmetic.peek(budget, key, state, nowMillis);
				}
			}
			finally {
				entry.unlock();
			}
			entry = find(budget.name(), key);
		}
		return FixedWindowArithmetic.peek(budget, key, null, nowMillis);
	}

	@Override
	public void reset(Budget budget, String key) {
		Map<String, StoreEntry> home = index.get(budget.name());
		if (home == null) {
			return;
		}
		Segment segment = segmentFor(budget.name(), key);
		synchronized (segment) {
			StoreEntry entry = home.get(key);
			if (entry != null) {
				segment.remove(entry);
			}
		}
	}

	@Override
	public String name() {
		return "memory";
	}

	/** Keys held right now, across both partitions. */
	public int size() {
		return size(segments) + size(addressSegments);
	}

	/** Address keys held right now ({@code a:} and the guard's per-address counters). */
	public int addressKeys() {
		return size(addressSegments);
	}

	private static int size(Segment[] partition) {
		int size = 0;
		for (Segment segment : partition) {
			synchronized (segment) {
				size += segment.size();
			}
		}
		return size;
	}

	/**
	 * Whether this store issued {@code lease} (lease ids carry a prefix unique to the
	 * store).
	 */
	public boolean issued(Lease lease) {
		return lease.id().startsWith(leaseIdPrefix);
	}

	public int maxKeys() {
		return maxKeys;
	}

	/** Needs {@code entry}'s lock, and {@code entry} not removed. */
	private Decision decide(StoreEntry entry, Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		int windowCount = budget.windows().size();
		if (entry.windowCount() != windowCount) {
			entry.clear(windowCount);
		}
		if (!entry.referenced) {
			entry.referenced = true;
		}
		return FixedWindowArithmetic.take(budget, key, entry, cost, expensive, nowMillis, leaseIds);
	}

	/**
	 * A key the index did not hold: under its segment's lock, looks again, adds it if
	 * still missing, decides, then keeps the store within its bounds.
	 */
	private Decision insertAndTake(Map<String, StoreEntry> home, Budget budget, String key, long cost,
			boolean expensive, long nowMillis) {
		// A request that can never be admitted creates no key.
		budget.checkCost(cost);
		boolean address = isAddressKey(budget.name(), key);
		Segment segment = segmentFor(address, budget.name(), key);
		synchronized (segment) {
			StoreEntry entry = home.get(key);
			if (entry == null) {
				entry = new StoreEntry(home, key, segment, budget.windows().size());
				home.put(key, entry);
				segment.add(entry);
			}
			Decision decision;
			entry.lock();
			try {
				decision = decide(entry, budget, key, cost, expensive, nowMillis);
			}
			finally {
				entry.unlock();
			}
			if (held.get() > maxKeys) {
				makeRoom(segment, address);
			}
			segment.sweep(nowMillis - EXPIRY_MARGIN_MILLIS);
			return decision;
		}
	}

	/**
	 * Called with {@code segment}'s lock held, once a new key made the store pass
	 * {@code maxKeys}. An address key evicts from its own segment (itself last, after its
	 * decision is made); any other key evicts one address key, taking an address
	 * segment's lock (address keys never take another segment's lock, so the order cannot
	 * deadlock), and only when there is none from its own segment.
	 */
	private void makeRoom(Segment segment, boolean address) {
		if (address) {
			while (held.get() > maxKeys && segment.evictEldest()) {
				// evicted one
			}
			return;
		}
		for (int i = 0; i < addressSegments.length && held.get() > maxKeys; i++) {
			Segment victim = addressSegments[addressCursor.getAndIncrement() & segmentMask];
			synchronized (victim) {
				victim.evictEldest();
			}
		}
		while (held.get() > maxKeys && segment.size() > 1 && segment.evictEldest()) {
			// evicted one
		}
	}

	private Map<String, StoreEntry> home(String budget) {
		Map<String, StoreEntry> home = index.get(budget);
		return home != null ? home : index.computeIfAbsent(budget, (name) -> new ConcurrentHashMap<>());
	}

	private StoreEntry find(String budget, String key) {
		Map<String, StoreEntry> home = index.get(budget);
		return home != null ? home.get(key) : null;
	}

	private Segment segmentFor(String budget, String key) {
		return segmentFor(isAddressKey(budget, key), budget, key);
	}

	private Segment segmentFor(boolean address, String budget, String key) {
		Segment[] partition = address ? addressSegments : segments;
		return partition[(int) (SipHash.keyed(budget, key) >>> 40) & segmentMask];
	}

	/**
	 * A key any caller can mint more of by changing its address, rather than one
	 * authentication established.
	 */
	private static boolean isAddressKey(String budget, String key) {
		return key.startsWith("a:") || GUARD_ADDRESS_BUDGETS.contains(budget);
	}

	private String nextLeaseId() {
		return leaseIdPrefix + Long.toHexString(leaseSequence.incrementAndGet());
	}

}
