package dev.limiter.core.internal;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;

import java.security.SecureRandom;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Counters in this process, striped over segments that each hold an access-ordered map
 * under its own lock.
 *
 * <p>
 * Bounded: the store never holds more than {@code maxKeys} keys, in two partitions.
 * Address keys (a caller without a credential, {@code a:}, and the authentication guard's
 * per-address pending and failure counters) are one; everything else (credential and
 * principal counters, guard blocks) the other. When the store is full an address key only
 * ever evicts another address key, while any other key evicts an address key first: a
 * flood of addresses can never evict a credential's counters or a guard block, and
 * credentials may use every key. Within a partition, when a segment is full its least
 * recently used key goes first, and keys whose windows have all ended and whose leases
 * have all expired at least {@link #EXPIRY_MARGIN_MILLIS} ago are swept from the cold end
 * as traffic passes. Evicting a live key forgets its counts: the bound on memory wins
 * over exactness for keys nobody has touched for longest.
 *
 * <p>
 * A key's segment (and its bucket in the segment's map) comes from SipHash-2-4 keyed with
 * a per-process random seed, so a caller who can choose keys (addresses in a large IPv6
 * prefix, say) cannot aim them at one segment to evict a chosen key or to degrade a map
 * into a list.
 */
public final class InMemoryRateLimitStore implements RateLimitStore {

	private static final int MAX_SEGMENTS = 64;

	private static final int SWEEP_STEPS = 8;

	/**
	 * A segment sweeps once every this many decisions (a power of two), keeping the hot
	 * path short.
	 */
	private static final int SWEEP_EVERY = 16;

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

	/** Keys every segment choice in this process; unknown outside it. */
	private static final long SEED_0;

	private static final long SEED_1;

	static {
		SecureRandom random = new SecureRandom();
		SEED_0 = random.nextLong();
		SEED_1 = random.nextLong();
	}

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
		String budgetName = budget.name();
		long keyedHash = SipHash.hash(SEED_0, SEED_1, budgetName, key);
		boolean address = isAddressKey(budgetName, key);
		Segment segment = segmentFor(address, keyedHash);
		int windowCount = budget.windows().size();
		synchronized (segment) {
			// The segment's probe finds a known key without allocating one; only a new
			// key gets its own StoreKey.
			CounterState state = segment.map.get(segment.probe(budgetName, key, keyedHash));
			if (state == null || state.windowCount() != windowCount) {
				if (state == null) {
					held.incrementAndGet();
				}
				state = new CounterState(windowCount);
				segment.map.put(new StoreKey(budgetName, key, keyedHash), state);
			}
			Decision decision = FixedWindowArithmetic.take(budget, key, state, cost, expensive, nowMillis, leaseIds);
			if (held.get() > maxKeys) {
				makeRoom(segment, address);
			}
			segment.sweep(nowMillis - EXPIRY_MARGIN_MILLIS);
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
			if (segment.map.remove(storeKey) != null) {
				held.decrementAndGet();
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
				size += segment.map.size();
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

	/**
	 * Called with {@code segment}'s lock held, once a new key made the store pass
	 * {@code maxKeys}. An address key evicts the least recently used keys of its own
	 * segment (itself last, after its decision is made); any other key evicts one address
	 * key, taking an address segment's lock (address keys never take another lock, so the
	 * order cannot deadlock), and only when there is none its own segment's eldest.
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
		while (held.get() > maxKeys && segment.map.size() > 1 && segment.evictEldest()) {
			// evicted one
		}
	}

	private Segment segmentFor(StoreKey key) {
		return segmentFor(isAddressKey(key), key.keyedHash);
	}

	private Segment segmentFor(boolean address, long keyedHash) {
		Segment[] partition = address ? addressSegments : segments;
		return partition[(int) (keyedHash >>> 40) & segmentMask];
	}

	/**
	 * A key any caller can mint more of by changing its address, rather than one
	 * authentication established.
	 */
	static boolean isAddressKey(StoreKey key) {
		return isAddressKey(key.budget, key.key);
	}

	private static boolean isAddressKey(String budget, String key) {
		return key.startsWith("a:") || GUARD_ADDRESS_BUDGETS.contains(budget);
	}

	private String nextLeaseId() {
		return leaseIdPrefix + Long.toHexString(leaseSequence.incrementAndGet());
	}

	static final class StoreKey {

		/**
		 * Final except in a segment's probe, which is only ever changed and read under
		 * the segment's lock.
		 */
		String budget;

		String key;

		long keyedHash;

		int hash;

		StoreKey(String budget, String key) {
			this(budget, key, SipHash.hash(SEED_0, SEED_1, budget, key));
		}

		StoreKey(String budget, String key, long keyedHash) {
			this.budget = budget;
			this.key = key;
			this.keyedHash = keyedHash;
			this.hash = (int) keyedHash;
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

		final AtomicInteger held;

		/** A reusable lookup key, never stored in the map; needs this segment's lock. */
		private final StoreKey probe = new StoreKey("", "", 0);

		int decisions;

		Segment(int capacity, AtomicInteger held) {
			this.held = held;
			this.map = new LinkedHashMap<>(16, 0.75f, true) {
				@Override
				protected boolean removeEldestEntry(Map.Entry<StoreKey, CounterState> eldest) {
					if (size() > capacity) {
						held.decrementAndGet();
						return true;
					}
					return false;
				}
			};
		}

		/**
		 * The probe set to (budget, key); valid until the next call. Needs this segment's
		 * lock.
		 */
		StoreKey probe(String budget, String key, long keyedHash) {
			probe.budget = budget;
			probe.key = key;
			probe.keyedHash = keyedHash;
			probe.hash = (int) keyedHash;
			return probe;
		}

		/**
		 * Drops the least recently used key; false when there is none. Needs this
		 * segment's lock.
		 */
		boolean evictEldest() {
			Iterator<StoreKey> it = map.keySet().iterator();
			if (!it.hasNext()) {
				return false;
			}
			it.next();
			it.remove();
			held.decrementAndGet();
			return true;
		}

		/**
		 * Drops a few idle keys from the cold end, so expired counters do not wait for
		 * eviction.
		 */
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
				held.decrementAndGet();
			}
		}

	}

}
