package dev.limiter.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The thresholds of a window at which the application is told its usage crossed a share
 * of the limit ({@code notify-at: [80%, 100%]}): whole percentages in (0 %, 100 %],
 * ascending, each reached once per key and window period ({@link ThresholdCrossing}).
 * Immutable.
 */
public final class NotifyAt {

	private final List<Integer> percents;

	private NotifyAt(List<Integer> percents) {
		this.percents = percents;
	}

	/**
	 * The thresholds at {@code percents}, each in (0, 100], duplicates dropped.
	 * @throws InvalidValueException naming {@link Window.Field#NOTIFY_AT}
	 */
	public static NotifyAt of(List<Integer> percents) {
		if (percents == null || percents.isEmpty()) {
			throw new InvalidValueException(Window.Field.NOTIFY_AT, "notify-at ",
					"must list at least one percentage, such as [80%]");
		}
		TreeSet<Integer> sorted = new TreeSet<>();
		for (Integer percent : percents) {
			if (percent == null || percent < 1 || percent > 100) {
				throw new InvalidValueException(Window.Field.NOTIFY_AT, "notify-at ",
						"must be whole percentages in (0%, 100%], was " + percent + "%");
			}
			sorted.add(percent);
		}
		return new NotifyAt(List.copyOf(sorted));
	}

	/**
	 * The thresholds the configuration values name: {@code 80%} or {@code 80}.
	 * @throws InvalidValueException naming {@link Window.Field#NOTIFY_AT}
	 */
	public static NotifyAt parse(List<String> values) {
		List<Integer> percents = new ArrayList<>();
		for (String value : (values != null) ? values : List.<String>of()) {
			String number = (value == null) ? "" : value.trim().toLowerCase(Locale.ROOT).replace("%", "").trim();
			try {
				percents.add(Integer.valueOf(number));
			}
			catch (NumberFormatException ex) {
				throw new InvalidValueException(Window.Field.NOTIFY_AT, "notify-at ",
						"must be whole percentages in (0%, 100%], such as 80%, was '" + value + "'");
			}
		}
		return of(percents);
	}

	/** The percentages, ascending. */
	public List<Integer> percents() {
		return percents;
	}

	/**
	 * The usage of a window of {@code limit} at which the threshold at {@code percent} is
	 * reached: {@code ceil(limit * percent / 100)}, at least 1.
	 */
	public static long units(long limit, int percent) {
		return Math.max(1, -Math.floorDiv(-limit * percent, 100));
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof NotifyAt other && percents.equals(other.percents);
	}

	@Override
	public int hashCode() {
		return Objects.hash(percents);
	}

	@Override
	public String toString() {
		return percents.stream().map((p) -> p + "%").toList().toString();
	}

}
