package dev.limiter.core;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Leases a budget's quota in slices (ADR 0014): for a budget with
 * {@link Budget#slices()}, a request takes a slice of every window from the store
 * ({@link RateLimitStore#takeSlice}, counted there at once) and the requests after it on
 * this instance are admitted from what is left of it, with no store call, until it is
 * spent, its window instance ends or it goes unused for its ttl (a token bucket's: its
 * ttl from when it was taken); what is left then goes back to the store
 * ({@link RateLimitStore#settle}, sent without waiting). Every window is sliced together:
 * an admission spends its cost from each.
 *
 * <p>
 * Refusals are never local: a request the slice cannot cover asks the store, whose
 * refusal carries today's exact retry. A local admission's {@code remaining} is what the
 * store answered with the last slice plus what this instance still holds: never more than
 * the limit, and as fresh as that slice (other instances' admissions since are not in
 * it). Budgets without slices, budgets in units (reserve and settle), and requests that
 * need a concurrency lease go to the store unchanged.
 *
 * <p>
 * At most {@code maxKeys} keys hold a slice at once; a key beyond them is decided by the
 * store, one call per request. Expired slices are given back when their key is next used,
 * and all of them by a sweep at most once per second of decision time.
 */
public final class SlicedRateLimitStore extends ForwardingRateLimitStore {

	/** Keys holding a slice at once by default. */
	public static final int DEFAULT_MAX_KEYS = 10_000;

	private static final long SWEEP_EVERY_MILLIS = 1_000;

	private final RateLimitStore store;

	private final int maxKeys;

	private final ConcurrentHashMap<HeldKey, HeldSlice> held = new ConcurrentHashMap<>();

	/**
	 * The keys whose next slice a thread of this instance is taking: one at a time, so
	 * that a key never holds more than one slice's units, and the other threads wait for
	 * it instead of calling the store themselves.
	 */
	private final ConcurrentHashMap<HeldKey, CompletableFuture<Void>> slicing = new ConcurrentHashMap<>();

	/** Decision time of the last sweep; 0 (the epoch) so that the first one runs. */
	private final AtomicLong lastSweepMillis = new AtomicLong();

	public SlicedRateLimitStore(RateLimitStore store) {
		this(store, DEFAULT_MAX_KEYS);
	}

	public SlicedRateLimitStore(RateLimitStore store, int maxKeys) {
		this.store = Objects.requireNonNull(store, "store");
		if (maxKeys < 1) {
			throw new IllegalArgumentException("maxKeys must be at least 1, was " + maxKeys);
		}
		this.maxKeys = maxKeys;
	}

	@Override
	public RateLimitStore delegate() {
		return store;
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		SliceTerms terms = terms(budget, expensive);
		if (terms == null) {
			return store.take(budget, key, cost, expensive, nowMillis);
		}
		budget.checkCost(cost);
		Decision local = spend(budget, key, cost, nowMillis);
		if (local != null) {
			return local;
		}
		HeldKey at = new HeldKey(budget.name(), key);
		CompletableFuture<Void> taken = new CompletableFuture<>();
		CompletableFuture<Void> inFlight = slicing.putIfAbsent(at, taken);
		if (inFlight != null) {
			// Its slice is on its way: wait for it (never longer than the store's call)
			// rather than make a call of our own.
			inFlight.exceptionally((ex) -> null).join();
			local = spend(budget, key, cost, nowMillis);
			return (local != null) ? local : store.take(budget, key, cost, false, nowMillis);
		}
		try {
			local = spend(budget, key, cost, nowMillis);
			return (local != null) ? local
					: hold(budget, key, cost, terms, store.takeSlice(budget, key, cost, terms, nowMillis), nowMillis);
		}
		finally {
			slicing.remove(at);
			taken.complete(null);
		}
	}

	/** A local admission completes at once; a slice completes when the store answers. */
	@Override
	public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		SliceTerms terms = terms(budget, expensive);
		if (terms == null) {
			return store.takeAsync(budget, key, cost, expensive, nowMillis);
		}
		HeldKey at = new HeldKey(budget.name(), key);
		CompletableFuture<Void> taken = new CompletableFuture<>();
		try {
			budget.checkCost(cost);
			Decision local = spend(budget, key, cost, nowMillis);
			if (local != null) {
				return CompletableFuture.completedFuture(local);
			}
			CompletableFuture<Void> inFlight = slicing.putIfAbsent(at, taken);
			if (inFlight != null) {
				return inFlight.exceptionally((ex) -> null).thenCompose((ignored) -> {
					Decision spent = spend(budget, key, cost, nowMillis);
					return (spent != null) ? CompletableFuture.completedFuture(spent)
							: store.takeAsync(budget, key, cost, false, nowMillis);
				});
			}
			return store.takeSliceAsync(budget, key, cost, terms, nowMillis)
				.thenApply((slice) -> hold(budget, key, cost, terms, slice, nowMillis))
				.whenComplete((decision, ex) -> {
					slicing.remove(at);
					taken.complete(null);
				});
		}
		catch (RuntimeException ex) {
			slicing.remove(at, taken);
			taken.complete(null);
			return CompletableFuture.failedFuture(ex);
		}
	}

	@Override
	public CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
			long nowMillis) {
		return store.reserveAsync(budget, key, amounts, expensive, nowMillis);
	}

	@Override
	public CompletionStage<Boolean> renewAsync(Lease lease, long expiresAtMillis, long nowMillis) {
		return store.renewAsync(lease, expiresAtMillis, nowMillis);
	}

	/** Forgets this instance's slice of the key (its units are reset with the key). */
	@Override
	public void reset(Budget budget, String key) {
		held.remove(new HeldKey(budget.name(), key));
		store.reset(budget, key);
	}

	/** Gives back every slice expired at {@code nowMillis}; sent without waiting. */
	public void giveBackExpired(long nowMillis) {
		lastSweepMillis.set(nowMillis);
		held.forEach((k, slice) -> {
			if (slice.expired(nowMillis) && held.remove(k, slice)) {
				giveBack(slice, nowMillis);
			}
		});
	}

	/** Units this instance holds for the key in every window, not yet admitted. */
	public long heldUnits(Budget budget, String key) {
		HeldSlice slice = held.get(new HeldKey(budget.name(), key));
		return (slice != null) ? slice.units() : 0;
	}

	/** The budget's slice terms when this request may be sliced, else {@code null}. */
	private static SliceTerms terms(Budget budget, boolean expensive) {
		SliceTerms terms = budget.slices().orElse(null);
		if (terms == null || budget.hasUnits() || (expensive && budget.concurrency().isPresent())) {
			return null;
		}
		return terms;
	}

	private Decision spend(Budget budget, String key, long cost, long nowMillis) {
		HeldKey at = new HeldKey(budget.name(), key);
		HeldSlice slice = held.get(at);
		if (slice == null) {
			return null;
		}
		Decision local = slice.isFor(budget) ? slice.spend(cost, nowMillis) : null;
		if (local == null && (!slice.isFor(budget) || slice.expired(nowMillis)) && held.remove(at, slice)) {
			giveBack(slice, nowMillis);
		}
		return local;
	}

	/**
	 * Keeps what the slice holds beyond the request that took it; answers that request.
	 */
	private Decision hold(Budget budget, String key, long cost, SliceTerms terms, Slice slice, long nowMillis) {
		Decision decision = slice.decision();
		long left = slice.units() - cost;
		if (!decision.allowed() || left <= 0) {
			return decision;
		}
		List<Window> windows = budget.windows();
		long[] instances = new long[windows.size()];
		long[] giveBackUntil = new long[windows.size()];
		long lastEnd = Long.MAX_VALUE;
		for (int i = 0; i < instances.length; i++) {
			Window w = windows.get(i);
			WindowKind kind = w.algorithm().kind();
			instances[i] = kind.reservedInstance(w, decision.verdicts().get(i));
			giveBackUntil[i] = kind.sliceGiveBackUntil(w, decision.verdicts().get(i));
			lastEnd = Math.min(lastEnd, kind.sliceEndMillis(w, instances[i], nowMillis));
		}
		long end = Math.min(lastEnd, nowMillis + terms.ttlMillis());
		// A slice in use is kept while its window instances last: each admission from it
		// moves its end a ttl on, so a key that keeps coming back makes no call per ttl.
		// Not
		// a token bucket's (no instance end): a token is spent at most a ttl after it was
		// taken, which is what bounds a bucket's admissions.
		long idle = (lastEnd < Long.MAX_VALUE) ? terms.ttlMillis() : 0;
		HeldSlice fresh = new HeldSlice(budget, key, instances, giveBackUntil, left, end, lastEnd, idle,
				decision.verdicts());
		// The thresholds the slice's units reached were decided where they were counted,
		// once across all instances: this request reports them.
		Decision answer = decision.crossings().isEmpty() ? fresh.decision(nowMillis)
				: fresh.decision(nowMillis).withCrossings(decision.crossings());
		HeldKey at = new HeldKey(budget.name(), key);
		HeldSlice[] replaced = new HeldSlice[1];
		HeldSlice kept = (fresh.expired(nowMillis) || (held.size() >= maxKeys && !held.containsKey(at))) ? null
				: held.compute(at, (k, old) -> {
					if (old != null && old.absorb(fresh, nowMillis)) {
						return old;
					}
					replaced[0] = old;
					return fresh;
				});
		if (kept == null) {
			giveBack(fresh, nowMillis);
		}
		if (replaced[0] != null) {
			giveBack(replaced[0], nowMillis);
		}
		sweepNow(nowMillis);
		return answer;
	}

	private void sweepNow(long nowMillis) {
		long last = lastSweepMillis.get();
		if (nowMillis - last >= SWEEP_EVERY_MILLIS && lastSweepMillis.compareAndSet(last, nowMillis)) {
			giveBackExpired(nowMillis);
		}
	}

	/** What the slice still holds back to the store; a failure only loses those units. */
	private void giveBack(HeldSlice slice, long nowMillis) {
		Settlement leftover = slice.drain(nowMillis);
		if (leftover == null || !leftover.changesAnything()) {
			return;
		}
		try {
			store.settle(leftover, nowMillis).exceptionally((ex) -> null);
		}
		catch (RuntimeException ex) {
			// A store that cannot take units back keeps them counted until their window
			// ends.
		}
	}

	private record HeldKey(String budget, String key) {
	}

}
