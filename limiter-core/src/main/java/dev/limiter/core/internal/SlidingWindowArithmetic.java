package dev.limiter.core.internal;

import java.util.Arrays;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;

/**
 * A sliding window, once, in Java (ADR 0008): admissions counted in buckets of the
 * window's resolution {@code s}; bucket {@code b} holds what was admitted in
 * {@code [b * s, (b + 1) * s)} and counts until {@code (b + 1) * s + duration}, the
 * latest moment any of its admissions ages out. Rounding every expiry later is what keeps
 * the bound exact: no span of length {@code duration} ever holds more than {@code limit},
 * and an admission is held at most one resolution step longer than a log of every
 * admission would hold it. {@code take.lua} is the only other implementation.
 *
 * <p>
 * State per window: {@code [n, total, b_1, c_1, ..., b_n, c_n]}, buckets in ascending
 * order, {@code total} the sum of the {@code c_j} held: what still counts is the total
 * less the few aged-out buckets in front, read without a pass over every bucket. A clock
 * that went back counts in the newest bucket seen and reads the buckets as at its start;
 * only buckets that had expired by the newest bucket's start are ever dropped, so a clock
 * going back never sees fewer admissions than a later one would.
 */
final class SlidingWindowArithmetic {

	/** The state's slots before its first bucket: {@code n}, {@code total}. */
	private static final int HEADER = 2;

	private SlidingWindowArithmetic() {
	}

	/** The moment the buckets are read at: now, or the newest bucket's start if later. */
	static long effectiveNow(Window w, long[] buckets, long nowMillis) {
		if (buckets == null || buckets[0] == 0) {
			return nowMillis;
		}
		return Math.max(nowMillis, newest(buckets) * w.resolutionMillis());
	}

	/** When what bucket {@code b} holds stops counting. */
	static long expiry(Window w, long b) {
		return (b + 1) * w.resolutionMillis() + w.durationMillis();
	}

	/** Units that still count at {@code nowMillis}. */
	static long alive(Window w, long[] buckets, long nowMillis) {
		if (buckets == null) {
			return 0;
		}
		long at = effectiveNow(w, buckets, nowMillis);
		long alive = buckets[1];
		int n = (int) buckets[0];
		for (int j = 0; j < n && expiry(w, bucket(buckets, j)) <= at; j++) {
			alive -= units(buckets, j);
		}
		return alive;
	}

	/**
	 * The index of the oldest bucket that still counts at {@code at} ({@code n} when none
	 * does): the buckets ascend, so every bucket after it counts too, and only the few
	 * older ones that have aged out but are not dropped yet are compared.
	 */
	private static int oldestAlive(Window w, long[] buckets, long at) {
		int n = (int) buckets[0];
		int j = 0;
		while (j < n && expiry(w, bucket(buckets, j)) <= at) {
			j++;
		}
		return j;
	}

	/** Counts {@code cost} at {@code nowMillis} in window {@code i} of {@code state}. */
	static void count(Window w, CounterState state, int i, long cost, long nowMillis) {
		long[] held = state.slide(i);
		long[] buckets = held;
		long at = effectiveNow(w, buckets, nowMillis);
		long current = bucketAt(w, buckets, at);
		if (buckets == null) {
			buckets = new long[HEADER + 2 * 2];
		}
		int n = (int) buckets[0];
		if (n > 0 && bucket(buckets, n - 1) == current) {
			buckets[HEADER + 2 * (n - 1) + 1] += cost;
		}
		else {
			if (HEADER + 2 * (n + 1) > buckets.length) {
				// Doubling, up to the most buckets the window can hold (the steps in its
				// duration and the current one): a full minute of one-second buckets
				// takes 1 KB, not the next power of two.
				long most = -Math.floorDiv(-w.durationMillis(), w.resolutionMillis()) + 2;
				int length = (int) Math.min(HEADER + 2L * (buckets.length - HEADER), HEADER + 2 * most);
				buckets = Arrays.copyOf(buckets, Math.max(length, HEADER + 2 * (n + 1)));
			}
			buckets[HEADER + 2 * n] = current;
			buckets[HEADER + 2 * n + 1] = cost;
			n++;
		}
		long total = buckets[1] + cost;
		// Drop only what had expired by the newest bucket's start (see the class
		// comment).
		long from = current * w.resolutionMillis();
		int drop = 0;
		while (drop < n && expiry(w, bucket(buckets, drop)) <= from) {
			total -= units(buckets, drop);
			drop++;
		}
		if (drop > 0) {
			System.arraycopy(buckets, HEADER + 2 * drop, buckets, HEADER, 2 * (n - drop));
			Arrays.fill(buckets, HEADER + 2 * (n - drop), HEADER + 2 * n, 0);
			n -= drop;
		}
		buckets[0] = n;
		buckets[1] = total;
		if (buckets != held) {
			state.slide(i, buckets);
		}
		// Kept as the window's reset, so an idle key is recognised without its budget;
		// written only when it moves (a reference store and two writes per decision
		// otherwise, for a hot key that counts in the same bucket).
		long reset = expiry(w, current);
		if (state.reset(i) != reset || state.count(i) != 0) {
			state.restart(i, reset);
		}
	}

	/**
	 * {@link #count} of an admission for its most common case, small enough for the
	 * compiler to inline: {@code nowMillis} within the newest bucket held, no bucket held
	 * aged out by then and the window's reset the newest bucket's expiry. Then
	 * {@link #alive} is the total held, {@link #count} would add to the newest bucket,
	 * drop nothing and keep the reset; this counts the same when {@code cost} fits.
	 * @return what counts after the admission; -1, with nothing changed, when this is not
	 * that case or {@code cost} does not fit
	 */
	static long admitInNewest(Window w, CounterState state, int i, long[] buckets, long cost, long nowMillis) {
		if (buckets == null || buckets[0] == 0) {
			return -1;
		}
		int newest = HEADER + 2 * ((int) buckets[0] - 1);
		long b = buckets[newest];
		long resolution = w.resolutionMillis();
		long total = buckets[1];
		if (nowMillis < b * resolution || nowMillis >= (b + 1) * resolution || expiry(w, buckets[HEADER]) <= nowMillis
				|| state.reset(i) != expiry(w, b) || state.count(i) != 0 || cost > w.limit() - total) {
			return -1;
		}
		buckets[newest + 1] += cost;
		buckets[1] = total + cost;
		return total + cost;
	}

	/**
	 * The number of the bucket {@code at} falls in, {@code at} being
	 * {@link #effectiveNow}: the newest bucket held while {@code at} is still within it
	 * (told without a division, as a hot key finds it), else {@code at} over the
	 * resolution.
	 */
	private static long bucketAt(Window w, long[] buckets, long at) {
		if (buckets != null && buckets[0] > 0) {
			long newest = newest(buckets);
			// at >= newest * resolution (effectiveNow), so this is the floor.
			if (at < (newest + 1) * w.resolutionMillis()) {
				return newest;
			}
		}
		return Math.floorDiv(at, w.resolutionMillis());
	}

	/**
	 * Adds {@code delta} (within {@link SettlementBounds#clampDelta}) to bucket
	 * {@code bucket} of window {@code i}, saturating
	 * ({@link SettlementBounds#settledCount}); nothing when the bucket is no longer held
	 * (it aged out and was dropped).
	 */
	static void settle(CounterState state, int i, long bucket, long delta) {
		long[] buckets = state.slide(i);
		if (buckets == null) {
			return;
		}
		int n = (int) buckets[0];
		for (int j = 0; j < n; j++) {
			if (bucket(buckets, j) == bucket) {
				long settled = SettlementBounds.settledCount(units(buckets, j), delta);
				buckets[1] += settled - units(buckets, j);
				buckets[HEADER + 2 * j + 1] = settled;
				return;
			}
		}
	}

	/**
	 * How the window stands at {@code nowMillis} with {@code alive} units still counting
	 * ({@link #alive}): {@code remaining} what could be admitted now, the reset when the
	 * last counted admission ages out (now when none counts), and the retry as
	 * {@link BoundVerdict#retryAtMillis()} says: for a refusal, when enough buckets have
	 * aged out for {@code cost}; otherwise when the oldest one does.
	 */
	static BoundVerdict verdict(Window w, long[] buckets, long alive, long cost, boolean refused, long nowMillis) {
		long newestExpiry = (alive > 0) ? expiry(w, newest(buckets)) : nowMillis;
		return verdict(w, alive, newestExpiry, retryAt(w, buckets, alive, cost, refused, nowMillis), refused,
				nowMillis);
	}

	/**
	 * {@link #verdict} from its parts: {@code newestExpiry} when the newest bucket held
	 * ages out (read only when {@code alive > 0}), {@code retryAt} what {@link #retryAt}
	 * answers.
	 */
	static BoundVerdict verdict(Window w, long alive, long newestExpiry, long retryAt, boolean refused,
			long nowMillis) {
		return BoundVerdict.window(w, w.limit() - alive, (alive > 0) ? newestExpiry : nowMillis, refused, retryAt);
	}

	/** {@link #verdict}'s retry. */
	static long retryAt(Window w, long[] buckets, long alive, long cost, boolean refused, long nowMillis) {
		long retry = Long.MAX_VALUE;
		if (alive > 0) {
			long at = effectiveNow(w, buckets, nowMillis);
			int n = (int) buckets[0];
			// What may still count once the retry comes: room for the cost, or one unit
			// more than now.
			long target = refused ? w.limit() - cost : alive - 1;
			long left = alive;
			for (int j = oldestAlive(w, buckets, at); j < n && left > target; j++) {
				left -= units(buckets, j);
				retry = expiry(w, bucket(buckets, j));
			}
		}
		return retry;
	}

	private static long newest(long[] buckets) {
		return bucket(buckets, (int) buckets[0] - 1);
	}

	/** The number of the {@code j}th bucket held (its start over the resolution). */
	private static long bucket(long[] buckets, int j) {
		return buckets[HEADER + 2 * j];
	}

	/** What the {@code j}th bucket held counts. */
	private static long units(long[] buckets, int j) {
		return buckets[HEADER + 2 * j + 1];
	}

}
