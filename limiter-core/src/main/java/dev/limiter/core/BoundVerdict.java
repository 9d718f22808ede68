package dev.limiter.core;

/**
 * How one bound of a budget stands after a decision (or a peek).
 *
 * <p>
 * For a window: {@code limit} units per window, {@code remaining} after this decision,
 * {@code resetAtMillis} the end of the current window, {@code periodMillis} the window's
 * length. For the concurrency bound: {@code limit} is the number of leases,
 * {@code remaining} the free ones, {@code resetAtMillis} the earliest expiry of a held
 * lease (or the decision time when none is held), {@code periodMillis} the lease length.
 *
 * @param name the window's name, or {@link BoundNames#CONCURRENCY}
 * @param concurrency whether this is the concurrency bound
 * @param limit the bound's size
 * @param remaining what is left, never negative
 * @param resetAtMillis when the bound next frees room, epoch milliseconds
 * @param periodMillis the window length or the lease length
 * @param refused whether this bound refused the request
 *
 * <p>
 * Built through {@link #window} and {@link #concurrency}, which derive name, limit and
 * period from the bound itself; the canonical constructor stays public only because a
 * public record's must be.
 */
public record BoundVerdict(String name, boolean concurrency, long limit, long remaining, long resetAtMillis,
		long periodMillis, boolean refused) {

	public BoundVerdict {
		if (remaining < 0) {
			throw new IllegalArgumentException("remaining must not be negative, was " + remaining);
		}
	}

	/**
	 * How a window stands when {@code counted} units are counted in the window that ends
	 * at {@code resetAtMillis}.
	 */
	public static BoundVerdict window(Window window, long counted, long resetAtMillis, boolean refused) {
		return new BoundVerdict(window.name(), false, window.limit(), Math.max(0, window.limit() - counted),
				resetAtMillis, window.durationMillis(), refused);
	}

	/**
	 * How the concurrency bound stands with {@code held} live leases, the earliest of
	 * which expires at {@code earliestExpiryMillis} (the decision time when none is
	 * held).
	 */
	public static BoundVerdict concurrency(ConcurrencyBound bound, long held, long earliestExpiryMillis,
			boolean refused) {
		return new BoundVerdict(BoundNames.CONCURRENCY, true, bound.max(), Math.max(0, bound.max() - held),
				earliestExpiryMillis, bound.leaseMillis(), refused);
	}

	/** This verdict with {@code refused} replaced, everything else kept. */
	public BoundVerdict withRefused(boolean refused) {
		return refused == this.refused ? this
				: new BoundVerdict(name, concurrency, limit, remaining, resetAtMillis, periodMillis, refused);
	}

	/**
	 * Milliseconds from {@code nowMillis} until this bound frees room; zero if it already
	 * has room.
	 */
	public long waitMillis(long nowMillis) {
		return Math.max(0, resetAtMillis - nowMillis);
	}
}
