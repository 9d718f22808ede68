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
 * @param retryAtMillis when this bound next answers better, epoch milliseconds: for a
 * refused bound, the earliest instant at which it would admit the refused request's cost
 * (what {@code Retry-After} says); for one with room, the earliest instant its
 * {@code remaining} grows on its own ({@link Long#MAX_VALUE} for a token bucket that is
 * already full). A fixed window and the concurrency bound answer {@code resetAtMillis} in
 * both cases; a sliding window and a token bucket may answer earlier than their reset,
 * which for them is the moment they are whole again.
 * @param unit what a window counts ({@link Window#unit()}); {@link Window#REQUESTS} for a
 * window of requests and for the concurrency bound
 *
 * <p>
 * Built through {@link #window} and {@link #concurrency}, which derive name, limit and
 * period from the bound itself; the canonical constructor stays public only because a
 * public record's must be.
 */
public record BoundVerdict(String name, boolean concurrency, long limit, long remaining, long resetAtMillis,
		long periodMillis, boolean refused, long retryAtMillis, String unit) {

	public BoundVerdict {
		if (remaining < 0) {
			throw new IllegalArgumentException("remaining must not be negative, was " + remaining);
		}
		unit = (unit == null) ? Window.REQUESTS : unit;
	}

	/** A verdict on a bound counting requests. */
	public BoundVerdict(String name, boolean concurrency, long limit, long remaining, long resetAtMillis,
			long periodMillis, boolean refused, long retryAtMillis) {
		this(name, concurrency, limit, remaining, resetAtMillis, periodMillis, refused, retryAtMillis, Window.REQUESTS);
	}

	/**
	 * A verdict whose next better answer is its reset, as for a fixed window and the
	 * concurrency bound.
	 */
	public BoundVerdict(String name, boolean concurrency, long limit, long remaining, long resetAtMillis,
			long periodMillis, boolean refused) {
		this(name, concurrency, limit, remaining, resetAtMillis, periodMillis, refused, resetAtMillis);
	}

	/**
	 * How a window stands when {@code counted} units are counted in the window that ends
	 * at {@code resetAtMillis}.
	 */
	public static BoundVerdict window(Window window, long counted, long resetAtMillis, boolean refused) {
		return new BoundVerdict(window.name(), false, window.limit(), Math.max(0, window.limit() - counted),
				resetAtMillis, window.periodMillisEndingAt(resetAtMillis), refused, resetAtMillis, window.unit());
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

	/**
	 * How a sliding window or a token bucket stands: {@code remaining} what could be
	 * admitted now, {@code resetAtMillis} when it is whole again, {@code retryAtMillis}
	 * as the record says.
	 */
	public static BoundVerdict window(Window window, long remaining, long resetAtMillis, boolean refused,
			long retryAtMillis) {
		return new BoundVerdict(window.name(), false, window.limit(), Math.max(0, remaining), resetAtMillis,
				window.periodMillisEndingAt(resetAtMillis), refused, retryAtMillis, window.unit());
	}

	/** Whether this bound counts requests (every bound but a window in another unit). */
	public boolean countsRequests() {
		return Window.REQUESTS.equals(unit);
	}

	/** This verdict with {@code refused} replaced, everything else kept. */
	public BoundVerdict withRefused(boolean refused) {
		return refused == this.refused ? this : new BoundVerdict(name, concurrency, limit, remaining, resetAtMillis,
				periodMillis, refused, retryAtMillis, unit);
	}

	/**
	 * Milliseconds from {@code nowMillis} until this bound's reset (for a sliding window
	 * or a token bucket: until it is whole again); zero once passed.
	 */
	public long waitMillis(long nowMillis) {
		return Math.max(0, resetAtMillis - nowMillis);
	}

	/**
	 * Milliseconds from {@code nowMillis} until this bound would admit what it refused
	 * ({@link #retryAtMillis}); zero once passed.
	 */
	public long retryAfterMillis(long nowMillis) {
		return Math.max(0, retryAtMillis - nowMillis);
	}
}
