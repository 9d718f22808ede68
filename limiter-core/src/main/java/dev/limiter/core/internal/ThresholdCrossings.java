package dev.limiter.core.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Settlement;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;

/**
 * Which {@code notify-at} thresholds a store step reached, under the key's lock: a
 * threshold is reached when the window's count in its period (a fixed window's instance,
 * a calendar period) is at least the threshold's units and no earlier step in that period
 * reached it (nor a higher one), so each is reported once per key, period and threshold:
 * by the decision, or the settlement, that moved the count across it. {@code take.lua}'s
 * and {@code settle.lua}'s fixed-window blocks hold the same rule with their {@code :n}
 * field.
 */
final class ThresholdCrossings {

	private ThresholdCrossings() {
	}

	/**
	 * The thresholds a decision reached; records them in {@code state}. Called after the
	 * decision counted, never in a dry run.
	 */
	static List<ThresholdCrossing> reached(Budget budget, String key, CounterState state) {
		List<ThresholdCrossing> crossings = null;
		for (int i = 0; i < budget.windows().size(); i++) {
			crossings = reached(budget, key, state, i, crossings);
		}
		return (crossings != null) ? crossings : List.of();
	}

	/**
	 * The thresholds a settlement reached: in each window it had a delta for that landed
	 * ({@code sent}, as {@code settle.lua} is sent only those) and that still counts in
	 * the instance the delta was for (a window that takes thresholds counts in the
	 * instance its reset names); records them in {@code state}. Called after the
	 * settlement was applied.
	 */
	static List<ThresholdCrossing> settled(Settlement settlement, CounterState state, boolean[] sent) {
		List<ThresholdCrossing> crossings = null;
		for (int i = 0; i < sent.length; i++) {
			if (sent[i] && state.reset(i) == settlement.instances()[i]) {
				crossings = reached(settlement.budget(), settlement.key(), state, i, crossings);
			}
		}
		return (crossings != null) ? crossings : List.of();
	}

	/**
	 * Adds the thresholds window {@code i} reached now to {@code crossings} (made when
	 * {@code null} and one is reached) and records them in {@code state}.
	 */
	private static List<ThresholdCrossing> reached(Budget budget, String key, CounterState state, int i,
			List<ThresholdCrossing> crossings) {
		Window w = budget.windows().get(i);
		NotifyAt notifyAt = w.notifyAt().orElse(null);
		if (notifyAt == null) {
			return crossings;
		}
		long periodEnd = state.reset(i);
		long usage = state.count(i);
		long[] notified = (state.notified != null) ? state.notified.get(w.name()) : null;
		long reached = (notified != null && notified[0] == periodEnd) ? notified[1] : 0;
		long highest = reached;
		for (int percent : notifyAt.percents()) {
			long units = NotifyAt.units(w.limit(), percent);
			if (units > reached && units <= usage) {
				if (crossings == null) {
					crossings = new ArrayList<>(2);
				}
				crossings
					.add(new ThresholdCrossing(budget.name(), key, w.name(), percent, usage, w.limit(), periodEnd));
				highest = units;
			}
		}
		if (highest != reached || (notified != null && notified[0] != periodEnd)) {
			if (state.notified == null) {
				state.notified = new HashMap<>(4);
			}
			state.notified.put(w.name(), new long[] { periodEnd, highest });
		}
		return crossings;
	}

}
