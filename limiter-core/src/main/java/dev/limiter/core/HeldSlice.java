package dev.limiter.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The slice one key holds on one instance ({@link SlicedRateLimitStore}): its units left,
 * the window instances they count in, until when they may be spent and given back, and
 * the store's verdicts when it was taken. Every method holds its lock.
 */
final class HeldSlice {

	private final Budget budget;

	private final String key;

	private final long[] instances;

	private final long[] giveBackUntil;

	private long units;

	private long endMillis;

	/** The latest {@link #endMillis} may move to: its window instances' end. */
	private long lastEndMillis;

	/**
	 * How far each admission moves {@link #endMillis} on (the ttl: a slice in use is
	 * kept, an unused one given back); 0 when it never moves.
	 */
	private final long idleMillis;

	/** The store's verdicts with the slice counted: what it left for the others. */
	private List<BoundVerdict> verdicts;

	HeldSlice(Budget budget, String key, long[] instances, long[] giveBackUntil, long units, long endMillis,
			long lastEndMillis, long idleMillis, List<BoundVerdict> verdicts) {
		this.budget = budget;
		this.key = key;
		this.instances = instances;
		this.giveBackUntil = giveBackUntil;
		this.units = units;
		this.endMillis = endMillis;
		this.lastEndMillis = lastEndMillis;
		this.idleMillis = idleMillis;
		this.verdicts = verdicts;
	}

	/**
	 * Whether this slice was taken for {@code budget} as it is now (a refresh changes
	 * it).
	 */
	boolean isFor(Budget budget) {
		return this.budget.equals(budget);
	}

	synchronized boolean expired(long nowMillis) {
		return nowMillis >= endMillis || units == 0;
	}

	synchronized long units() {
		return units;
	}

	synchronized Decision spend(long cost, long nowMillis) {
		if (nowMillis >= endMillis || units < cost) {
			return null;
		}
		units -= cost;
		if (idleMillis > 0) {
			endMillis = Math.min(lastEndMillis, Math.max(endMillis, nowMillis + idleMillis));
		}
		return decision(nowMillis);
	}

	/**
	 * Adds a newer slice of the same window instances; its verdicts are newer too.
	 */
	synchronized boolean absorb(HeldSlice fresh, long nowMillis) {
		if (nowMillis >= endMillis || !budget.equals(fresh.budget) || !Arrays.equals(instances, fresh.instances)) {
			return false;
		}
		units += fresh.units;
		for (int i = 0; i < giveBackUntil.length; i++) {
			giveBackUntil[i] = Math.min(giveBackUntil[i], fresh.giveBackUntil[i]);
		}
		endMillis = Math.min(endMillis, fresh.endMillis);
		lastEndMillis = Math.min(lastEndMillis, fresh.lastEndMillis);
		verdicts = fresh.verdicts;
		return true;
	}

	synchronized Decision decision(long nowMillis) {
		List<BoundVerdict> local = new ArrayList<>(verdicts.size());
		for (int i = 0; i < verdicts.size(); i++) {
			BoundVerdict v = verdicts.get(i);
			local.add(new BoundVerdict(v.name(), v.concurrency(), v.limit(), v.remaining() + units, v.resetAtMillis(),
					v.periodMillis(), false, v.retryAtMillis(), v.unit()));
		}
		return Decision.of(budget.name(), nowMillis, local, null);
	}

	/** Takes every unit left, as the settlement that gives them back where it may. */
	synchronized Settlement drain(long nowMillis) {
		if (units == 0) {
			return null;
		}
		long[] deltas = new long[instances.length];
		for (int i = 0; i < deltas.length; i++) {
			deltas[i] = (nowMillis < giveBackUntil[i]) ? -units : 0;
		}
		units = 0;
		return new Settlement(budget, key, instances.clone(), deltas, new long[instances.length], false);
	}

}
