package dev.limiter.resilience;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.InProcessRateLimitStore;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Settlement;
import dev.limiter.core.StoreMode;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.StoreNotCalledException;
import dev.limiter.core.StoreUnavailableException;

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
 */
public final class FailOpenRateLimitStore implements RateLimitStore {

	/**
	 * What a probe reads, without counting: a key without the prefix ({@code t:},
	 * {@code p:}, {@code a:}) every counted key has.
	 */
	private static final Budget PROBE_BUDGET = Budget.builder("limiter-probe")
		.window("probe", 1, Duration.ofSeconds(1))
		.build();

	private static final String PROBE_KEY = "probe";

	/**
	 * A half-open breaker permits a configured number of trial calls, then has closed or
	 * refuses: this only bounds a probe against a guard that never settles.
	 */
	private static final int MAX_PROBE_READS = 100;

	private final RateLimitStore authoritative;

	private final InProcessRateLimitStore fallback;

	private final Predicate<Budget> failsClosed;

	private final long closedRetryAfterMillis;

	private final StoreModeListener listener;

	private final BooleanSupplier guardSettled;

	private final AtomicLong calls = new AtomicLong();

	/**
	 * The call number at which the current outage was noticed; -1 while authoritative.
	 */
	private final AtomicLong degradedSinceCall = new AtomicLong(-1);

	/**
	 * The call number at which the last outage ended; calls up to it were in flight
	 * during that outage.
	 */
	private final AtomicLong recoveredAtCall = new AtomicLong(-1);

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
		this.guardSettled = Objects.requireNonNull(guardSettled, "guardSettled");
		this.authoritative = Objects.requireNonNull(authoritative, "authoritative");
		this.fallback = RateLimitStores.inMemory(fallbackMaxKeys);
		this.failsClosed = Objects.requireNonNull(failsClosed, "failsClosed");
		this.closedRetryAfterMillis = closedRetryAfterMillis;
		this.listener = Objects.requireNonNull(listener, "listener");
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		// a caller's mistake, not a store failure: it must neither trip the breaker nor
		// reach the fallback
		budget.checkCost(cost);
		return decide(budget, key, cost, null, expensive, nowMillis);
	}

	/**
	 * As {@link #take}: the authoritative store reserves, or the fallback (degraded) when
	 * it cannot answer; its {@link dev.limiter.core.Reservation} is then settled in the
	 * fallback too ({@link #settle}).
	 */
	@Override
	public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		budget.checkAmounts(amounts);
		return decide(budget, key, 0, amounts, expensive, nowMillis);
	}

	/**
	 * To the store that made the reservation: the fallback for a degraded one, the
	 * authoritative otherwise, whatever the mode is now (ADR 0012). Never through the
	 * breaker's accounting of decisions: a settlement is sent without waiting.
	 */
	@Override
	public CompletionStage<Void> settle(Settlement settlement, long nowMillis) {
		try {
			return (settlement.degraded() ? fallback : authoritative).settle(settlement, nowMillis);
		}
		catch (RuntimeException failure) {
			return CompletableFuture.failedFuture(failure);
		}
	}

	/** {@code amounts} per window when reserving, else {@code cost} from each. */
	private Decision decide(Budget budget, String key, long cost, long[] amounts, boolean expensive, long nowMillis) {
		long call = calls.incrementAndGet();
		try {
			Decision decision = (amounts != null) ? authoritative.reserve(budget, key, amounts, expensive, nowMillis)
					: authoritative.take(budget, key, cost, expensive, nowMillis);
			if (decision.allowed()) {
				// Only an admission proves the store answered: a refusal may come from a
				// decorator's local memory of keys over their limit (no store call at
				// all), which must not end an outage.
				succeeded(call);
			}
			return decision.withLeaseIssuedBy(authoritative);
		}
		catch (RuntimeException failure) {
			failed(call, failure);
			if (failsClosed.test(budget)) {
				throw new StoreUnavailableException(budget.name(), closedRetryAfterMillis, failure);
			}
			try {
				Decision degraded = (amounts != null) ? fallback.reserve(budget, key, amounts, expensive, nowMillis)
						: fallback.take(budget, key, cost, expensive, nowMillis);
				return degraded.asDegraded().withLeaseIssuedBy(fallback);
			}
			catch (RuntimeException fallbackFailure) {
				fallbackFailure.addSuppressed(failure);
				return FailurePolicy.uncounted(budget, nowMillis);
			}
		}
	}

	/**
	 * Hands the lease back to the store that issued it (its {@link Lease#issuer()}), else
	 * to the authoritative.
	 */
	@Override
	public void release(Lease lease, long nowMillis) {
		Lease.Issuer issuer = lease.issuer();
		(issuer == null || issuer == this ? authoritative : issuer).release(lease, nowMillis);
	}

	/** Renewed where it was taken, as it is released. */
	@Override
	public boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		Lease.Issuer issuer = lease.issuer();
		return (issuer == null || issuer == this ? authoritative : issuer).renew(lease, expiresAtMillis, nowMillis);
	}

	/**
	 * Reads the authoritative counters, or the fallback's (degraded) ones when the store
	 * cannot answer.
	 */
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

	/**
	 * Resets the key in both the fallback and the store; a store failure is rethrown
	 * after the fallback reset.
	 */
	@Override
	public void reset(Budget budget, String key) {
		fallback.reset(budget, key);
		authoritative.reset(budget, key);
	}

	@Override
	public String name() {
		return authoritative.name();
	}

	public StoreMode mode() {
		return degradedSinceCall.get() < 0 ? StoreMode.AUTHORITATIVE : StoreMode.DEGRADED;
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
		for (int read = 0; read < MAX_PROBE_READS && mode() == StoreMode.DEGRADED; read++) {
			long call = calls.incrementAndGet();
			try {
				authoritative.peek(PROBE_BUDGET, PROBE_KEY, nowMillis);
			}
			catch (RuntimeException stillFailing) {
				break;
			}
			succeeded(call);
		}
		return mode();
	}

	/** Keys the fallback holds right now. */
	public int fallbackKeys() {
		return fallback.size();
	}

	public RateLimitStore authoritative() {
		return authoritative;
	}

	private void succeeded(long call) {
		long since = degradedSinceCall.get();
		if (since >= 0 && call > since && guardSettled.getAsBoolean()) {
			// written before the mode flips, so that no late failure of an older call
			// slips in between
			recoveredAtCall.accumulateAndGet(calls.get(), Math::max);
			if (degradedSinceCall.compareAndSet(since, -1)) {
				listener.recovered(authoritative.name());
			}
		}
	}

	private void failed(long call, RuntimeException failure) {
		if (degradedSinceCall.get() >= 0 || call <= recoveredAtCall.get()) {
			return;
		}
		if (failure instanceof StoreNotCalledException && guardSettled.getAsBoolean()) {
			// refused just before the guard closed: this call is decided by the fallback,
			// but the store is fine
			return;
		}
		if (degradedSinceCall.compareAndSet(-1, call)) {
			listener.degraded(authoritative.name(), failure);
		}
	}

}
