package dev.limiter.core;

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
public interface RateLimitStore {

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
	 * Hands a lease back. Releasing a lease twice, or one that already expired, is a
	 * no-op. Implementations backed by a network may do this asynchronously; it is never
	 * on the response path.
	 */
	void release(Lease lease, long nowMillis);

	/**
	 * Keeps a lease of a request still in flight: moves its expiry to
	 * {@code expiresAtMillis} (never earlier than it was) if it is still live at
	 * {@code nowMillis}. A lease that expired, was released or was forgotten is not
	 * brought back: another request may hold its slot by now.
	 * @return whether the lease was still held (and now lives until
	 * {@code expiresAtMillis})
	 */
	default boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		return false;
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
