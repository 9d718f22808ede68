package dev.limiter.core.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.InProcessRateLimitStore;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.Settlement;
import dev.limiter.core.ThresholdCrossing;

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
 * one segment to evict a chosen key (see {@link Partitions}). The keyed hash is computed
 * when a key enters the store and on a reset, never for a decision on a known key, which
 * finds its entry through a {@link ConcurrentHashMap} per budget keyed by the key string
 * itself. That index cannot be degraded by chosen {@code String.hashCode} collisions
 * either: the map turns a crowded bin into a tree ordered by the (comparable) strings, so
 * a lookup stays logarithmic, and which key is evicted never depends on that hash.
 */
public final class InMemoryRateLimitStore implements InProcessRateLimitStore {

	/**
	 * How long a key is kept after its windows ended and its leases expired, like the
	 * Redis store's default expiry margin: a clock that goes back by less than this still
	 * counts in the newest window the key saw.
	 */
	static final long EXPIRY_MARGIN_MILLIS = 2_000;

	/** Slots of {@link #recentBudgets}, a power of two. */
	private static final int RECENT_BUDGETS = 16;

	/**
	 * What a settlement that reached no threshold answers: applied (or dropped) before it
	 * returns.
	 */
	private static final CompletionStage<List<ThresholdCrossing>> SETTLED = CompletableFuture.completedStage(List.of());

	/** Per budget name, its keys' entries. */
	private final Map<String, Map<String, StoreEntry>> index = new ConcurrentHashMap<>();

	/**
	 * Recently used budgets' entries, by the budget name's hash ({@link #home}): a budget
	 * decided again finds its entries without a lookup in {@link #index}, and budgets
	 * whose names differ in these bits never displace each other, so a steady mix of
	 * budgets writes nothing here. Plain slots on purpose: a thread that sees an older
	 * pair only looks up again, and a pair's final fields make any pair it sees whole.
	 */
	private final BudgetEntries[] recentBudgets = new BudgetEntries[RECENT_BUDGETS];

	private final Partitions partitions;

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
		this.partitions = new Partitions(maxKeys);
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		return take(budget, key, cost, null, expensive, nowMillis);
	}

	@Override
	public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		budget.checkAmounts(amounts);
		return take(budget, key, 0, amounts, expensive, nowMillis);
	}

	@Override
	public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
		Budget budget = settlement.budget();
		StoreEntry entry = find(budget.name(), settlement.key());
		if (entry == null || !settlement.changesAnything()) {
			return SETTLED;
		}
		List<ThresholdCrossing> crossings = List.of();
		entry.lock();
		try {
			// A removed entry forgot the reservation, and one whose windows a refresh
			// changed since counts it under windows it was not reserved in: dropped.
			if (!entry.removed && WindowLayout.counts(entry, budget.windows())) {
				crossings = BudgetArithmetic.settle(entry, settlement, nowMillis);
			}
		}
		finally {
			entry.unlock();
		}
		return crossings.isEmpty() ? SETTLED : CompletableFuture.completedStage(crossings);
	}

	/** {@code amounts} when the request reserves per window, else {@code cost}. */
	private Decision take(Budget budget, String key, long cost, long[] amounts, boolean expensive, long nowMillis) {
		Map<String, StoreEntry> home = home(budget.name());
		StoreEntry entry = home.get(key);
		if (entry != null) {
			entry.lock();
			try {
				if (!entry.removed) {
					return decide(entry, budget, key, cost, amounts, expensive, nowMillis);
				}
			}
			finally {
				entry.unlock();
			}
		}
		return insertAndTake(home, budget, key, cost, amounts, expensive, nowMillis);
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
	public boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		StoreEntry entry = find(lease.budget(), lease.key());
		if (entry == null) {
			return false;
		}
		entry.lock();
		try {
			// A removed entry took its leases with it.
			return !entry.removed && entry.renewLease(lease.id(), expiresAtMillis, nowMillis);
		}
		finally {
			entry.unlock();
		}
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		StoreEntry entry = find(budget.name(), key);
		while (entry != null) {
			entry.lock();
			try {
				if (!entry.removed) {
					// Each window read under its name; what a window of another
					// algorithm left is no count of this one.
					WindowLayout.adopt(entry, budget.windows());
					return BudgetArithmetic.peek(budget, key, entry, nowMillis);
				}
			}
			finally {
				entry.unlock();
			}
			entry = find(budget.name(), key);
		}
		return BudgetArithmetic.peek(budget, key, null, nowMillis);
	}

	@Override
	public void reset(Budget budget, String key) {
		Map<String, StoreEntry> home = index.get(budget.name());
		if (home == null) {
			return;
		}
		Segment segment = partitions.segmentFor(budget.name(), key);
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
	@Override
	public int size() {
		return partitions.size();
	}

	/** Address keys held right now ({@code a:} and the guard's per-address counters). */
	public int addressKeys() {
		return partitions.addressKeys();
	}

	@Override
	public int maxKeys() {
		return maxKeys;
	}

	/** Needs {@code entry}'s lock, and {@code entry} not removed. */
	private Decision decide(StoreEntry entry, Budget budget, String key, long cost, long[] amounts, boolean expensive,
			long nowMillis) {
		WindowLayout.adopt(entry, budget.windows());
		if (!entry.referenced) {
			entry.referenced = true;
		}
		return (amounts != null) ? BudgetArithmetic.reserve(budget, key, entry, amounts, expensive, nowMillis, leaseIds)
				: BudgetArithmetic.take(budget, key, entry, cost, expensive, nowMillis, leaseIds);
	}

	/**
	 * A key the index did not hold: under its segment's lock, looks again, adds it if
	 * still missing, decides, then keeps the store within its bounds.
	 */
	private Decision insertAndTake(Map<String, StoreEntry> home, Budget budget, String key, long cost, long[] amounts,
			boolean expensive, long nowMillis) {
		// A request that can never be admitted creates no key.
		if (amounts == null && budget.hasUnits()) {
			budget.checkAmounts(budget.amounts(cost, Map.of()));
		}
		else if (amounts == null) {
			budget.checkCost(cost);
		}
		Segment segment = partitions.segmentFor(budget.name(), key);
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
				decision = decide(entry, budget, key, cost, amounts, expensive, nowMillis);
			}
			finally {
				entry.unlock();
			}
			if (partitions.full()) {
				partitions.makeRoom(segment, Partitions.isAddressKey(budget.name(), key));
			}
			segment.sweep(nowMillis - EXPIRY_MARGIN_MILLIS);
			return decision;
		}
	}

	private Map<String, StoreEntry> home(String budget) {
		int slot = budget.hashCode() & (RECENT_BUDGETS - 1);
		BudgetEntries recent = recentBudgets[slot];
		if (recent != null && recent.budget.equals(budget)) {
			return recent.entries;
		}
		Map<String, StoreEntry> home = index.get(budget);
		if (home == null) {
			home = index.computeIfAbsent(budget, (name) -> new ConcurrentHashMap<>());
		}
		recentBudgets[slot] = new BudgetEntries(budget, home);
		return home;
	}

	private StoreEntry find(String budget, String key) {
		Map<String, StoreEntry> home = index.get(budget);
		return home != null ? home.get(key) : null;
	}

	private String nextLeaseId() {
		return leaseIdPrefix + Long.toHexString(leaseSequence.incrementAndGet());
	}

	/** A budget's name and its keys' entries; {@link #index} never drops them. */
	private record BudgetEntries(String budget, Map<String, StoreEntry> entries) {
	}

}
