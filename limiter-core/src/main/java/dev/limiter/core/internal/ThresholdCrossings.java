package dev.limiter.core.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;

/**
 * Which {@code notify-at} thresholds a decision reached, in the same locked step as the
 * decision: a threshold is reached when the window's count in its period is at least the
 * threshold's units and no earlier decision in that period reached it (nor a higher one),
 * so each is reported once per key, period and threshold, by an admission, or by the
 * first decision after a settlement that moved the count across it. {@code take.lua}'s
 * calendar block holds the same rule with its {@code :n} field.
 */
final class ThresholdCrossings {

	private ThresholdCrossings() {
	}

	/**
	 * The thresholds reached now; records them in {@code state}. Called after the
	 * decision counted, never in a dry run.
	 */
	static List<ThresholdCrossing> reached(Budget budget, String key, CounterState state) {
		List<ThresholdCrossing> crossings = null;
		List<Window> windows = budget.windows();
		for (int i = 0; i < windows.size(); i++) {
			Window w = windows.get(i);
			NotifyAt notifyAt = w.notifyAt().orElse(null);
			if (notifyAt == null) {
				continue;
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
		}
		return (crossings != null) ? crossings : List.of();
	}

}
