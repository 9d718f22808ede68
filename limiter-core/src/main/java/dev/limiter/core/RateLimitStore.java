package dev.limiter.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where counters live. Every implementation applies the same rule (ADR 0001) and passes
 * the same contract test suite.
 *
 * <p>
 * Contract:
 * <ul>
 * <li>{@link #take} is one atomic step per key: the check and the count cannot be
 * separated by another caller, so no number of threads or instances can admit more than a
 * bound allows.</li>
 * <li>Time is a parameter: implementations never read a clock. {@code nowMillis} values
 * for one key are expected to be non-decreasing; a smaller one is treated as if it were
 * the largest seen.</li>
 * <li>Implementations may throw {@link RateLimitStoreException} when they cannot answer;
 * they never answer a guess. Guessing is the job of the fail-open wrapper, which marks
 * its answers degraded.</li>
 * </ul>
 */
public interface RateLimitStore extends Lease.Issuer {

	/**
	 * Decides one request and counts it if admitted (or always, when the budget counts
	 * refusals).
	 * @param budget the budget the request is counted against
	 * @param key the counter key (already hashed; never a raw credential)
	 * @param cost units taken from every window, at least 1 and at most the smallest
	 * window's limit ({@link Budget#checkCost(long)}); anything else throws
	 * {@link IllegalArgumentException} before anything is counted
	 * @param expensive whether the request also needs a concurrency lease (ignored when
	 * the budget has no concurrency bound)
	 * @param nowMillis the decision time, epoch milliseconds
	 * @return the whole decision, never {@code null}
	 */
	Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis);

	/**
	 * {@link #take} for a budget whose windows count units other than requests
	 * ({@link Budget#hasUnits()}): {@code amounts[i]} is what the request takes from
	 * window {@code i} (its cost from a window of requests, the estimate of its unit from
	 * any other; {@link Budget#amounts}), all windows and the concurrency bound decided
	 * in the same one atomic step. {@link #take} on such a budget reserves 1 per unit.
	 * @throws IllegalArgumentException before anything is counted, unless every amount
	 * fits its window ({@link Budget#checkAmounts})
	 * @throws UnsupportedOperationException from a store that does not count units (the
	 * default, for a budget that has units)
	 */
	default Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		if (!budget.hasUnits()) {
			budget.checkAmounts(amounts);
			for (long amount : amounts) {
				if (amount != amounts[0]) {
					throw new IllegalArgumentException("a budget of requests only takes one cost from every window");
				}
			}
			return take(budget, key, amounts[0], expensive, nowMillis);
		}
		throw new UnsupportedOperationException("the " + name() + " store does not count units other than requests");
	}

	/**
	 * Applies a {@link Settlement}: per window, its delta goes to the instance the
	 * reservation counted in, atomically with respect to every decision on that key,
	 * where that instance still counts ({@link Settlement#lands}); elsewhere it is
	 * dropped. Never below zero: a refund larger than what is counted leaves nothing. A
	 * key reset or forgotten since drops the whole settlement. Implementations backed by
	 * a network send it without waiting; it is never on the response path. Settling the
	 * same reservation once is the caller's part ({@link Reservation#settle}). The
	 * {@code notify-at} thresholds the settlement moved the key's usage across are
	 * decided in the same atomic step, once per key, period and threshold whichever
	 * instance settles (a later decision does not report them again).
	 * @return completes once applied (or dropped) with the thresholds it reached (empty
	 * for none); exceptionally with a {@link RateLimitStoreException} when the store
	 * could not tell within its timeout
	 * @throws UnsupportedOperationException from a store that does not count units (the
	 * default)
	 */
	default CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
		throw new UnsupportedOperationException("the " + name() + " store does not count units other than requests");
	}

	/**
	 * Hands a lease back. Releasing a lease twice, or one that already expired, is a
	 * no-op. Implementations backed by a network may do this asynchronously; it is never
	 * on the response path.
	 */
	@Override
	void release(Lease lease, long nowMillis);

	/**
	 * Keeps a lease of a request still in flight: moves its expiry to
	 * {@code expiresAtMillis} (never earlier than it was) if it is still live at
	 * {@code nowMillis}. A lease that expired, was released or was forgotten is not
	 * brought back: another request may hold its slot by now.
	 * @return whether the lease was still held (and now lives until
	 * {@code expiresAtMillis})
	 */
	@Override
	default boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		return false;
	}

	/**
	 * {@link #take} for a caller that must not wait: a reactive request on an event loop.
	 * The same decision, counted the same way; only how the answer arrives differs.
	 * Implementations backed by a network complete the stage from their I/O thread and
	 * never block the calling thread; the default runs {@link #take} on it, which suits a
	 * store that answers from memory.
	 *
	 * <p>
	 * The deadline is per call, carried by the call itself: a store that waits on the
	 * network bounds each asynchronous call by its own timeout counted from the moment
	 * the call is sent, on a timer, and fails the stage when it runs out. No thread
	 * waits, so nothing is booked on the calling thread's {@link RequestStoreTime} (which
	 * holds a servlet request's calls to one timeout): a reactive request hops threads
	 * and overlaps its calls (the guard's reservation travels while the lookup runs), so
	 * its decision is answered, or failed for the fallback to decide, within one timeout
	 * of being sent. A call sent while a {@link RequestStoreTime} scope is open on the
	 * calling thread gets only what that request has left.
	 * @return completes with the decision, or exceptionally with what {@link #take} would
	 * have thrown (a {@link RateLimitStoreException}, an {@link IllegalArgumentException}
	 * for a cost out of range), possibly wrapped in a
	 * {@link java.util.concurrent.CompletionException} as dependent stages are
	 * @throws UnsupportedOperationException from a store that cannot answer without
	 * blocking the calling thread (the Redis store on a blocking client such as Jedis)
	 */
	default CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		try {
			return CompletableFuture.completedFuture(take(budget, key, cost, expensive, nowMillis));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * {@link #reserve} for a caller that must not wait, as {@link #takeAsync} is to
	 * {@link #take}.
	 */
	default CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
			long nowMillis) {
		try {
			return CompletableFuture.completedFuture(reserve(budget, key, amounts, expensive, nowMillis));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * {@link #renew} for a caller that must not wait (a reactive response that streams),
	 * as {@link #takeAsync} is to {@link #take}.
	 */
	default CompletionStage<Boolean> renewAsync(Lease lease, long expiresAtMillis, long nowMillis) {
		try {
			return CompletableFuture.completedFuture(renew(lease, expiresAtMillis, nowMillis));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * {@link #take} of a slice (ADR 0014): decides the request of {@code cost} exactly as
	 * {@link #take} does and, when it is admitted, counts up to {@link SliceTerms#size}
	 * units in every window in the same atomic step, so that every unit an instance may
	 * admit locally is counted before it is spent. Only for a budget of requests, without
	 * a lease. The default slices nothing: it is {@link #take}, and the slice is the
	 * request's own cost.
	 * @param terms the budget's slice terms ({@code max}; {@code ttl}, which tells a
	 * store that counts instances how long one is still taking slices)
	 * @return the decision and the units counted, never {@code null}
	 */
	default Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		Decision decision = take(budget, key, cost, false, nowMillis);
		return new Slice(decision, decision.allowed() ? cost : 0);
	}

	/**
	 * {@link #takeSlice} for a caller that must not wait, as {@link #takeAsync} is to
	 * {@link #take}.
	 */
	default CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
			long nowMillis) {
		try {
			return CompletableFuture.completedFuture(takeSlice(budget, key, cost, terms, nowMillis));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/** Reads one key's counters at {@code nowMillis} without counting anything. */
	KeyState peek(Budget budget, String key, long nowMillis);

	/** Forgets every counter and lease of one key of one budget. */
	void reset(Budget budget, String key);

	/**
	 * A short name for logs, health and meters, such as {@code memory} or {@code redis}.
	 */
	String name();

}
