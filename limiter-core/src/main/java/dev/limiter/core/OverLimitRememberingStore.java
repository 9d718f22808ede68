package dev.limiter.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Remembers, per (budget, key), a window that the store reported exhausted, and refuses
 * later requests of that key itself, without asking the store (a Redis round trip, or the
 * in-memory store's lock), until the earliest moment one of the budget's windows would
 * answer otherwise ({@link BoundVerdict#retryAtMillis()}: a fixed window's reset; for a
 * sliding window or a token bucket, when room for one unit comes back or its remaining
 * grows). Wraps any store; the auto-configuration wraps the store it builds once.
 *
 * <p>
 * Exact: while one window has nothing left, no request of that key can be admitted
 * anywhere, so no count of that key moves until that window resets (for budgets that do
 * not count refusals, the only ones remembered); the remembered window verdicts stay what
 * the store would answer, and {@link Decision#of} turns them into the same decision. Only
 * windows are remembered: a request that needs a concurrency lease still asks the store,
 * since leases come and go; nor is a request of a budget with a sliding window or a token
 * bucket that costs more than one unit, or what such a request learnt, since their room
 * for several units comes back later than for one. A request from a clock that went back
 * behind the refusal it would repeat asks the store too. {@link #reset} forgets the key,
 * also when the reset races a decision of the same key. The admission that leaves a
 * window at 0 is remembered like a refusal, and an answer with room that arrives after it
 * (sent earlier, by a concurrent request) does not make it forgotten: refusals after
 * exhaustion cost the store nothing at any concurrency, past the requests already on
 * their way. A reservation (a budget that counts units) is passed through: what was
 * reserved is known only once settled, so a remembered refusal could be one a settlement
 * has since lifted.
 *
 * <p>
 * Bounded: at most {@code maxEntries}; when full, entries whose windows have reset are
 * dropped (at most once per second of decision time), and if it is still full the newest
 * refusal is simply not remembered.
 */
public final class OverLimitRememberingStore extends ForwardingRateLimitStore {

	/** Keys remembered by default. */
	public static final int DEFAULT_MAX_ENTRIES = 10_000;

	private static final long PURGE_INTERVAL_MILLIS = 1_000;

	private final RateLimitStore store;

	private final int maxEntries;

	private final Map<Id, Entry> entries = new ConcurrentHashMap<>();

	/**
	 * Never fewer than the keys in {@link #entries}: raised before an entry is put,
	 * lowered after one is removed. Zero tells every admission that nothing is remembered
	 * with one read, where the map's {@code isEmpty} sums its counter cells.
	 */
	private final AtomicInteger remembered = new AtomicInteger();

	/**
	 * Counts resets, so that a decision that overlapped one does not leave behind what
	 * the reset forgot.
	 */
	private final AtomicLong resets = new AtomicLong();

	private volatile long lastPurgeMillis = Long.MIN_VALUE;

	/**
	 * @param store the store that decides
	 * @param maxEntries how many keys may be remembered at once; 0 remembers none
	 */
	public OverLimitRememberingStore(RateLimitStore store, int maxEntries) {
		this.store = Objects.requireNonNull(store, "store");
		if (maxEntries < 0) {
			throw new IllegalArgumentException("local over-limit memory size must not be negative, was " + maxEntries);
		}
		this.maxEntries = maxEntries;
	}

	public OverLimitRememberingStore(RateLimitStore store) {
		this(store, DEFAULT_MAX_ENTRIES);
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		if (passesThrough(budget)) {
			// Every refusal of such a budget must reach the store to be counted.
			return store.take(budget, key, cost, expensive, nowMillis);
		}
		Decision remembered = remembered(budget, key, cost, expensive, nowMillis);
		if (remembered != null) {
			return remembered;
		}
		long resetsBefore = resets.get();
		return learnt(budget, key, cost, store.take(budget, key, cost, expensive, nowMillis), resetsBefore);
	}

	/**
	 * {@link #take} without blocking: a remembered refusal is answered at once, without a
	 * store call; anything else is the store's {@link RateLimitStore#takeAsync}, learnt
	 * from when it completes.
	 */
	@Override
	public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		if (passesThrough(budget)) {
			return store.takeAsync(budget, key, cost, expensive, nowMillis);
		}
		Decision remembered = remembered(budget, key, cost, expensive, nowMillis);
		if (remembered != null) {
			return CompletableFuture.completedFuture(remembered);
		}
		long resetsBefore = resets.get();
		return store.takeAsync(budget, key, cost, expensive, nowMillis)
			.thenApply(decision -> learnt(budget, key, cost, decision, resetsBefore));
	}

	/**
	 * A slice (ADR 0014) is a decision: a remembered refusal is answered without a store
	 * call, as a slice of nothing, and the store's slice is learnt from as a
	 * {@link #take} is. Its decision is the request's own: a slice that leaves a window
	 * with nothing holds nothing beyond the request, since it is never more than half of
	 * what the fewest window has left ({@link SliceTerms#size}).
	 */
	@Override
	public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		if (passesThrough(budget)) {
			return store.takeSlice(budget, key, cost, terms, nowMillis);
		}
		Decision remembered = refuse(budget, key, cost, nowMillis);
		if (remembered != null) {
			return new Slice(remembered, 0);
		}
		long resetsBefore = resets.get();
		return learnt(budget, key, cost, store.takeSlice(budget, key, cost, terms, nowMillis), resetsBefore);
	}

	/** {@link #takeSlice} without blocking, as {@link #takeAsync}. */
	@Override
	public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
			long nowMillis) {
		if (passesThrough(budget)) {
			return store.takeSliceAsync(budget, key, cost, terms, nowMillis);
		}
		Decision remembered = refuse(budget, key, cost, nowMillis);
		if (remembered != null) {
			return CompletableFuture.completedFuture(new Slice(remembered, 0));
		}
		long resetsBefore = resets.get();
		return store.takeSliceAsync(budget, key, cost, terms, nowMillis)
			.thenApply(slice -> learnt(budget, key, cost, slice, resetsBefore));
	}

	private boolean passesThrough(Budget budget) {
		return budget.countRefused() || maxEntries == 0 || budget.hasUnits();
	}

	/**
	 * A remembered refusal for a request that may be answered from memory (one that needs
	 * no concurrency lease), else {@code null}.
	 */
	private Decision remembered(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		return expensive && budget.concurrency().isPresent() ? null : refuse(budget, key, cost, nowMillis);
	}

	/** The store's decision, after learning from it. */
	private Decision learnt(Budget budget, String key, long cost, Decision decision, long resetsBefore) {
		// Only what this decision remembered can outlive a reset that overlapped it.
		if (learn(budget, key, cost, decision) && resets.get() != resetsBefore) {
			forget(new Id(budget.name(), key));
		}
		return decision;
	}

	private Slice learnt(Budget budget, String key, long cost, Slice slice, long resetsBefore) {
		learnt(budget, key, cost, slice.decision(), resetsBefore);
		return slice;
	}

	@Override
	public void reset(Budget budget, String key) {
		resets.incrementAndGet();
		forget(new Id(budget.name(), key));
		store.reset(budget, key);
	}

	/** The store that decides whatever is not remembered. */
	@Override
	public RateLimitStore delegate() {
		return store;
	}

	/** Keys currently remembered as over a limit. */
	public int size() {
		return entries.size();
	}

	/**
	 * The decision the store would give for this request, when a remembered exhausted
	 * window still holds at {@code nowMillis}; {@code null} when the store must be asked.
	 */
	private Decision refuse(Budget budget, String key, long cost, long nowMillis) {
		if (remembered.get() == 0) {
			return null;
		}
		Id id = new Id(budget.name(), key);
		Entry entry = entries.get(id);
		if (entry == null) {
			return null;
		}
		if (!entry.budget.equals(budget) || nowMillis >= entry.validUntilMillis) {
			forget(id, entry);
			return null;
		}
		if (nowMillis < entry.seenAtMillis || (cost != 1 && !budget.allFixed())) {
			// A sliding window or a token bucket frees room for a larger cost later than
			// for one unit: only the store knows when.
			return null;
		}
		if (cost == 1) {
			return Decision.of(budget.name(), nowMillis, entry.windows, null);
		}
		List<BoundVerdict> verdicts = new ArrayList<>(entry.windows.size());
		for (BoundVerdict w : entry.windows) {
			verdicts.add(w.withRefused(w.remaining() < cost));
		}
		return Decision.of(budget.name(), nowMillis, verdicts, null);
	}

	/**
	 * Remembers the key if a window has nothing left: the refusal that followed, and the
	 * admission that took the last unit alike. An answer with room never forgets a
	 * remembered window: until that window resets no count of the key can move (only a
	 * {@link #reset}, which forgets by itself), so such an answer left the store before
	 * the one that exhausted it and merely arrived after it (concurrent requests), and
	 * forgetting on it would send the refusals that follow back to the store.
	 * @return whether the key is now remembered
	 */
	private boolean learn(Budget budget, String key, long cost, Decision decision) {
		// The common case (room left) is decided without allocating: it is on every
		// admission's path. A sliding window's or a token bucket's verdict tells when one
		// unit would be admitted only when it was decided for one unit.
		if (cost != 1 && !budget.allFixed()) {
			if (remembered.get() != 0) {
				forget(new Id(budget.name(), key));
			}
			return false;
		}
		if (!decision.anyWindowExhausted()) {
			if (remembered.get() != 0) {
				forgetEnded(new Id(budget.name(), key), decision.decidedAtMillis());
			}
			return false;
		}
		return remember(budget, key, decision);
	}

	/**
	 * {@link #learn} once a window of {@code decision} has nothing left: apart, so that
	 * the check every admission makes stays small enough to be inlined.
	 */
	private boolean remember(Budget budget, String key, Decision decision) {
		Id id = new Id(budget.name(), key);
		List<BoundVerdict> windows = new ArrayList<>(budget.windows().size());
		boolean exhausted = false;
		long validUntil = Long.MAX_VALUE;
		for (BoundVerdict v : decision.verdicts()) {
			if (!v.concurrency()) {
				// Kept as the verdicts of a one-unit request: the common case needs no
				// copy.
				windows.add(v.withRefused(v.remaining() < 1));
				exhausted |= v.remaining() == 0;
				// The first moment any window answers otherwise: its reset for a fixed
				// window, earlier for a sliding window or a token bucket.
				validUntil = Math.min(validUntil, v.retryAtMillis());
			}
		}
		if (!exhausted) {
			return false;
		}
		long now = decision.decidedAtMillis();
		if (entries.size() >= maxEntries && !entries.containsKey(id)) {
			purgeExpired(now);
			if (entries.size() >= maxEntries) {
				return false;
			}
		}
		remembered.incrementAndGet();
		if (entries.put(id, new Entry(budget, List.copyOf(windows), now, validUntil)) != null) {
			remembered.decrementAndGet();
		}
		return true;
	}

	/**
	 * Forgets a remembered window that had ended when an answer with room was decided:
	 * that answer counted in a later window, and the store keeps counting in the later
	 * one even for a clock that goes back, so the remembered refusal must not come back
	 * with it. (A request that needs a lease reaches the store without passing
	 * {@link #refuse}, so this is where such an entry goes.)
	 */
	private void forgetEnded(Id id, long decidedAtMillis) {
		Entry entry = entries.get(id);
		if (entry != null && decidedAtMillis >= entry.validUntilMillis) {
			forget(id, entry);
		}
	}

	private void purgeExpired(long nowMillis) {
		if (nowMillis - lastPurgeMillis < PURGE_INTERVAL_MILLIS && lastPurgeMillis != Long.MIN_VALUE) {
			return;
		}
		lastPurgeMillis = nowMillis;
		for (Map.Entry<Id, Entry> e : entries.entrySet()) {
			if (e.getValue().validUntilMillis <= nowMillis) {
				forget(e.getKey(), e.getValue());
			}
		}
	}

	private void forget(Id id) {
		if (entries.remove(id) != null) {
			remembered.decrementAndGet();
		}
	}

	private void forget(Id id, Entry entry) {
		if (entries.remove(id, entry)) {
			remembered.decrementAndGet();
		}
	}

	private record Id(String budget, String key) {
	}

	private record Entry(Budget budget, List<BoundVerdict> windows, long seenAtMillis, long validUntilMillis) {
	}

}
