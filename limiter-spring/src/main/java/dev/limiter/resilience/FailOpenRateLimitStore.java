package dev.limiter.resilience;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.InProcessRateLimitStore;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Settlement;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.StoreMode;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.StoreNotCalledException;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.core.ThresholdCrossing;

/**
 * Fail open, degraded and loud: decides with the authoritative store while it answers,
 * and with an in-process fallback (the same arithmetic, bounded keys) when it throws.
 * Fallback decisions are marked {@link Decision#degraded()}; when even the fallback
 * fails, the request is admitted {@link FailurePolicy#uncounted uncounted}. Budgets that
 * must fail closed get a {@link StoreUnavailableException} instead. Part of the
 * {@link FailurePolicy}.
 *
 * <p>
 * The authoritative store is expected to bound its own latency (a timeout, a circuit
 * breaker); this class only decides what happens once it has failed. The mode changes
 * once per outage: a call that was already in flight when the outage was noticed cannot
 * end it by succeeding late, a call that was in flight when it ended cannot start a new
 * one by failing late, and when a guard stands in front of the store (a circuit breaker)
 * the outage ends only once the guard has settled (closed again), so that a half-open
 * breaker's refusals never start a second outage right after the first one ended.
 *
 * <p>
 * A decorator may stand in front of these decisions ({@link #front()}): a remote stack's
 * leased quota slices (ADR 0014), whose local admissions are exact (their units were
 * counted by the store when the slice was taken) and therefore pass neither the guard nor
 * the fallback, while the slices themselves are taken through both. The store keeps its
 * type, mode and fallback whatever stands in front.
 */
public final class FailOpenRateLimitStore implements RateLimitStore {

	private final RateLimitStore authoritative;

	private final InProcessRateLimitStore fallback;

	private final OutageMode outage;

	private final FailOpenDecisions decisions;

	/** Where every call goes first: {@link Decided}, or a decorator around it. */
	private final RateLimitStore front;

	/**
	 * @param authoritative the store whose counters are the truth
	 * @param fallbackMaxKeys bound on the fallback's keys
	 * @param failsClosed budgets that refuse instead of falling back
	 * @param closedRetryAfterMillis the retry-after hint given with a fail-closed refusal
	 * @param listener told of each change of mode
	 */
	public FailOpenRateLimitStore(RateLimitStore authoritative, int fallbackMaxKeys, Predicate<Budget> failsClosed,
			long closedRetryAfterMillis, StoreModeListener listener) {
		this(authoritative, fallbackMaxKeys, failsClosed, closedRetryAfterMillis, listener, () -> true);
	}

	/**
	 * @param authoritative the store whose counters are the truth, possibly behind a
	 * guard
	 * @param fallbackMaxKeys bound on the fallback's keys
	 * @param failsClosed budgets that refuse instead of falling back
	 * @param closedRetryAfterMillis the retry-after hint given with a fail-closed refusal
	 * @param listener told of each change of mode
	 * @param guardSettled whether the guard in front of the store is back to normal (its
	 * breaker closed): an outage ends only on a success while it is, and the guard's
	 * {@link StoreNotCalledException refusals} while it is start none
	 */
	public FailOpenRateLimitStore(RateLimitStore authoritative, int fallbackMaxKeys, Predicate<Budget> failsClosed,
			long closedRetryAfterMillis, StoreModeListener listener, BooleanSupplier guardSettled) {
		this(authoritative, fallbackMaxKeys, failsClosed, closedRetryAfterMillis, listener, guardSettled,
				UnaryOperator.identity());
	}

	/**
	 * @param authoritative the store whose counters are the truth, possibly behind a
	 * guard
	 * @param fallbackMaxKeys bound on the fallback's keys
	 * @param failsClosed budgets that refuse instead of falling back
	 * @param closedRetryAfterMillis the retry-after hint given with a fail-closed refusal
	 * @param listener told of each change of mode
	 * @param guardSettled whether the guard in front of the store is back to normal (its
	 * breaker closed), as above
	 * @param inFront builds the decorator that every call of this store reaches first
	 * around this store's own decisions ({@link #front()}): what it answers by itself
	 * passes neither the guard nor the fallback, and what it asks of the store it passes
	 * to them; {@link UnaryOperator#identity()} for none
	 */
	public FailOpenRateLimitStore(RateLimitStore authoritative, int fallbackMaxKeys, Predicate<Budget> failsClosed,
			long closedRetryAfterMillis, StoreModeListener listener, BooleanSupplier guardSettled,
			UnaryOperator<RateLimitStore> inFront) {
		this.authoritative = Objects.requireNonNull(authoritative, "authoritative");
		this.outage = new OutageMode(authoritative.name(), listener, guardSettled);
		this.fallback = RateLimitStores.inMemory(fallbackMaxKeys);
		this.decisions = new FailOpenDecisions(authoritative, outage,
				new FallbackDecisions(fallback, failsClosed, closedRetryAfterMillis));
		this.front = Objects.requireNonNull(inFront.apply(new Decided()), "inFront");
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		return front.take(budget, key, cost, expensive, nowMillis);
	}

	/**
	 * As {@link #take}: the authoritative store reserves, or the fallback (degraded) when
	 * it cannot answer; its {@link dev.limiter.core.Reservation} is then settled in the
	 * fallback too ({@link #settle}).
	 */
	@Override
	public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		return front.reserve(budget, key, amounts, expensive, nowMillis);
	}

	/**
	 * To the store that made the reservation: the fallback for a degraded one, the
	 * authoritative otherwise, whatever the mode is now (ADR 0012). Never through the
	 * breaker's accounting of decisions: a settlement is sent without waiting.
	 */
	@Override
	public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
		return front.settle(settlement, nowMillis);
	}

	/**
	 * {@link #take} without blocking: the same decision, the authoritative store's
	 * {@link RateLimitStore#takeAsync} while it answers and the fallback's (degraded)
	 * when its stage fails or times out. The stage never fails for a store failure,
	 * except with a {@link StoreUnavailableException} (unwrapped) for a fail-closed
	 * budget; it fails at once, before anything is counted, with an
	 * {@link IllegalArgumentException} for a cost out of range.
	 */
	@Override
	public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		return front.takeAsync(budget, key, cost, expensive, nowMillis);
	}

	/** {@link #reserve} without blocking, as {@link #takeAsync}. */
	@Override
	public CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
			long nowMillis) {
		return front.reserveAsync(budget, key, amounts, expensive, nowMillis);
	}

	/**
	 * A slice (ADR 0014) decided as {@link #take} is: the authoritative store's slice
	 * while it answers; when it cannot, the fallback's decision (degraded) for the
	 * request alone, a slice of nothing more than its cost, so that nothing is admitted
	 * locally on a guess.
	 */
	@Override
	public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		return front.takeSlice(budget, key, cost, terms, nowMillis);
	}

	/** {@link #takeSlice} without blocking, as {@link #takeAsync}. */
	@Override
	public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
			long nowMillis) {
		return front.takeSliceAsync(budget, key, cost, terms, nowMillis);
	}

	/**
	 * Hands the lease back to the store that issued it (its {@link Lease#issuer()}), else
	 * to the authoritative.
	 */
	@Override
	public void release(Lease lease, long nowMillis) {
		front.release(lease, nowMillis);
	}

	/** Renewed where it was taken, as it is released. */
	@Override
	public boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		return front.renew(lease, expiresAtMillis, nowMillis);
	}

	/**
	 * {@link #renew} without blocking: the issuing store's
	 * {@link RateLimitStore#renewAsync} (an issuer that is no store renews on the calling
	 * thread).
	 */
	@Override
	public CompletionStage<Boolean> renewAsync(Lease lease, long expiresAtMillis, long nowMillis) {
		return front.renewAsync(lease, expiresAtMillis, nowMillis);
	}

	/**
	 * Reads the authoritative counters, or the fallback's (degraded) ones when the store
	 * cannot answer.
	 */
	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		return front.peek(budget, key, nowMillis);
	}

	/**
	 * Resets the key in what stands in front, the fallback and the store; a store failure
	 * is rethrown after the fallback reset.
	 */
	@Override
	public void reset(Budget budget, String key) {
		front.reset(budget, key);
	}

	@Override
	public String name() {
		return authoritative.name();
	}

	public StoreMode mode() {
		return outage.mode();
	}

	/**
	 * While degraded, asks the store whether it answers again instead of waiting for a
	 * request to: reads a key nobody is counted under, through the guard, until the
	 * outage ends or a read fails. An admission is not needed: a read the store answered
	 * once the guard has settled ends the outage as an admission would, and a half-open
	 * breaker takes the reads as its trial calls, so that one probe can close it. Does
	 * nothing while authoritative.
	 * @return the mode once probed
	 */
	public StoreMode probe(long nowMillis) {
		return outage.probe(authoritative, nowMillis);
	}

	/** Keys the fallback holds right now. */
	public int fallbackKeys() {
		return fallback.size();
	}

	public RateLimitStore authoritative() {
		return authoritative;
	}

	/**
	 * What every call of this store reaches first: the decorator its {@code inFront}
	 * built around this store's own decisions, or those decisions themselves.
	 */
	public RateLimitStore front() {
		return front;
	}

	/** This store's own calls, behind whatever stands in front of them. */
	private final class Decided implements RateLimitStore {

		@Override
		public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
			// a caller's mistake, not a store failure: it must neither trip the breaker
			// nor
			// reach the fallback
			budget.checkCost(cost);
			return decisions.decide(budget, key, cost, null, expensive, nowMillis);
		}

		@Override
		public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
			budget.checkAmounts(amounts);
			return decisions.decide(budget, key, 0, amounts, expensive, nowMillis);
		}

		@Override
		public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
			try {
				return (settlement.degraded() ? fallback : authoritative).settle(settlement, nowMillis);
			}
			catch (RuntimeException failure) {
				return CompletableFuture.failedFuture(failure);
			}
		}

		@Override
		public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
				long nowMillis) {
			try {
				budget.checkCost(cost);
			}
			catch (RuntimeException callersMistake) {
				return CompletableFuture.failedFuture(callersMistake);
			}
			return decisions.decideAsync(budget, key, cost, null, expensive, nowMillis);
		}

		@Override
		public CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
				long nowMillis) {
			try {
				budget.checkAmounts(amounts);
			}
			catch (RuntimeException callersMistake) {
				return CompletableFuture.failedFuture(callersMistake);
			}
			return decisions.decideAsync(budget, key, 0, amounts, expensive, nowMillis);
		}

		@Override
		public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
			budget.checkCost(cost);
			return decisions.slice(budget, key, cost, terms, nowMillis);
		}

		@Override
		public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
				long nowMillis) {
			try {
				budget.checkCost(cost);
			}
			catch (RuntimeException callersMistake) {
				return CompletableFuture.failedFuture(callersMistake);
			}
			return decisions.sliceAsync(budget, key, cost, terms, nowMillis);
		}

		@Override
		public void release(Lease lease, long nowMillis) {
			issuerOf(lease).release(lease, nowMillis);
		}

		@Override
		public boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
			return issuerOf(lease).renew(lease, expiresAtMillis, nowMillis);
		}

		@Override
		public CompletionStage<Boolean> renewAsync(Lease lease, long expiresAtMillis, long nowMillis) {
			Lease.Issuer issuer = issuerOf(lease);
			if (issuer instanceof RateLimitStore store) {
				return store.renewAsync(lease, expiresAtMillis, nowMillis);
			}
			try {
				return CompletableFuture.completedFuture(issuer.renew(lease, expiresAtMillis, nowMillis));
			}
			catch (RuntimeException failure) {
				return CompletableFuture.failedFuture(failure);
			}
		}

		private Lease.Issuer issuerOf(Lease lease) {
			Lease.Issuer issuer = lease.issuer();
			return issuer == null || issuer == FailOpenRateLimitStore.this ? authoritative : issuer;
		}

		@Override
		public KeyState peek(Budget budget, String key, long nowMillis) {
			try {
				return authoritative.peek(budget, key, nowMillis);
			}
			catch (RuntimeException failure) {
				// a block read from the fallback must say so, or a 429 built on it would
				// claim an exact count
				return fallback.peek(budget, key, nowMillis).asDegraded();
			}
		}

		@Override
		public void reset(Budget budget, String key) {
			fallback.reset(budget, key);
			authoritative.reset(budget, key);
		}

		@Override
		public String name() {
			return authoritative.name();
		}

	}

}
