package dev.limiter.core.internal;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;

/**
 * A token bucket, once, in Java (ADR 0009), as the generic cell rate algorithm: one
 * theoretical arrival time {@code TAT} per key, the moment the bucket is full again. With
 * {@code T = duration / limit}, a request of cost {@code c} at {@code now} is admitted
 * when {@code max(TAT, now) + c * T - now <= burst * T}, and moves {@code TAT} there.
 * {@code take.lua} is the only other implementation.
 *
 * <p>
 * Exact with integers only: {@code TAT} is kept as whole milliseconds (the window's reset
 * slot) plus a remainder in {@code 1 / limit} of a millisecond (its count slot), and
 * every comparison is made on "debt" {@code X = (TAT - now) * limit}, in
 * millisecond-tokens, so {@code c * T} is {@code c * duration}. A clock that goes back
 * only sees more debt: it can never admit more.
 */
final class TokenBucketArithmetic {

	private TokenBucketArithmetic() {
	}

	/** The debt at {@code nowMillis}: how far {@code TAT} lies ahead, times the limit. */
	static long debt(Window w, CounterState state, int i, long nowMillis) {
		return (state == null) ? 0 : debt(w, state.reset(i), state.count(i), nowMillis);
	}

	/**
	 * The debt at {@code nowMillis} of a bucket whose {@code TAT} is
	 * {@code tatMillis + fraction / limit}: the state's reset and count slots.
	 */
	static long debt(Window w, long tatMillis, long fraction, long nowMillis) {
		if (tatMillis < nowMillis) {
			// a TAT passed is a full bucket: no product of a long past with the limit
			return 0;
		}
		long ahead = SettlementBounds.saturatedProduct(tatMillis - nowMillis, w.limit());
		return SettlementBounds.saturatedSum(ahead, fraction);
	}

	/**
	 * Whether {@link #verdict}'s {@code remaining} is 0 with {@code debt}: fewer than one
	 * whole token there, i.e. {@code ceil(debt / duration) >= burst}, told without a
	 * division.
	 */
	static boolean exhausted(Window w, long debt) {
		return debt > (w.burst() - 1) * w.durationMillis();
	}

	/** Whether {@code cost} tokens are there at {@code nowMillis}. */
	static boolean fits(Window w, long debt, long cost) {
		return debt + cost * w.durationMillis() <= w.burst() * w.durationMillis();
	}

	/** Takes {@code cost} tokens at {@code nowMillis}, moving {@code TAT} on. */
	static void count(Window w, CounterState state, int i, long cost, long nowMillis) {
		count(w, state, i, debt(w, state, i, nowMillis), cost, nowMillis);
	}

	/**
	 * {@link #count(Window, CounterState, int, long, long)} when the caller has just read
	 * the debt at {@code nowMillis}.
	 */
	static void count(Window w, CounterState state, int i, long debt, long cost, long nowMillis) {
		long limit = w.limit();
		long millis = (debt > 0) ? state.reset(i) : nowMillis;
		long fraction = (debt > 0) ? state.count(i) : 0;
		if (cost == 1) {
			// the usual cost, its quotient kept by the window
			millis += w.perUnitMillis();
			fraction += w.perUnitRemainder();
		}
		else {
			long add = cost * w.durationMillis();
			millis += add / limit;
			fraction += add % limit;
		}
		if (fraction >= limit) {
			fraction -= limit;
			millis++;
		}
		state.restart(i, millis);
		state.count(i, fraction);
	}

	/**
	 * Moves {@code TAT} by {@code delta} tokens at {@code nowMillis}: later for more used
	 * than reserved (the bucket may go into debt beyond its size), earlier for a refund,
	 * never before now (a full bucket holds no more than its size). With {@code delta}
	 * within {@link SettlementBounds#clampDelta} its millisecond-tokens stay under
	 * {@link SettlementBounds#MAX_UNITS}, and the debt saturates at
	 * {@link SettlementBounds#MAX_COUNT}: {@code TAT} stays within {@code 2^52} ms of
	 * now.
	 */
	static void settle(Window w, CounterState state, int i, long delta, long nowMillis) {
		long debt = SettlementBounds.settledCount(debt(w, state, i, nowMillis), delta * w.durationMillis());
		long limit = w.limit();
		state.restart(i, nowMillis + debt / limit);
		state.count(i, debt % limit);
	}

	/**
	 * How the bucket stands with {@code debt} at {@code nowMillis}: {@code remaining} the
	 * whole tokens there, the reset when it is full again, and the retry as
	 * {@link BoundVerdict#retryAtMillis()} says: for a refusal, when {@code cost} tokens
	 * are there; otherwise when the next whole token is ({@link Long#MAX_VALUE} when
	 * full).
	 */
	static BoundVerdict verdict(Window w, long debt, long cost, boolean refused, long nowMillis) {
		long duration = w.durationMillis();
		long limit = w.limit();
		long missing = ceilDiv(debt, duration);
		long remaining = w.burst() - missing;
		long reset = nowMillis + ceilDiv(debt, limit);
		long retry;
		if (refused) {
			retry = nowMillis + ceilDiv(debt - (w.burst() - cost) * duration, limit);
		}
		else if (debt == 0) {
			retry = Long.MAX_VALUE;
		}
		else {
			retry = nowMillis + ceilDiv(debt - (missing - 1) * duration, limit);
		}
		return BoundVerdict.window(w, remaining, reset, refused, retry);
	}

	/** {@code a / b} rounded up, for {@code a >= 0} and {@code b > 0}. */
	private static long ceilDiv(long a, long b) {
		return -Math.floorDiv(-a, b);
	}

}
