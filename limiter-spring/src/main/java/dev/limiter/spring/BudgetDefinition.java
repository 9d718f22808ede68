package dev.limiter.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Window;

/**
 * A budget built by the application at run time (from a plan row, a tenant's contract):
 * windows, an optional concurrency bound, whether refusals count. Only data: the limiter
 * validates it as it validates a configured budget, once per identity (see
 * {@link BudgetDefinitionSelector}).
 *
 * <p>
 * Its {@link #name()} is what responses and meters show (the {@code budget} of a 429
 * body, the {@code budget} tag): keep the names few, such as one per plan. Counters are
 * kept per identity, never per name, so two definitions never share a counter.
 */
public final class BudgetDefinition {

	private final String name;

	private final List<WindowDefinition> windows;

	private final Integer concurrencyMax;

	private final Duration concurrencyLease;

	private final boolean countRefused;

	private BudgetDefinition(Builder builder) {
		this.name = builder.name;
		this.windows = List.copyOf(builder.windows);
		this.concurrencyMax = builder.concurrencyMax;
		this.concurrencyLease = builder.concurrencyLease;
		this.countRefused = builder.countRefused;
	}

	/**
	 * @param name shown in responses and meters; like a configured budget's name
	 * ({@code [A-Za-z0-9_-]{1,64}}) and not one of them
	 */
	public static Builder builder(String name) {
		return new Builder(name);
	}

	public String name() {
		return name;
	}

	public List<WindowDefinition> windows() {
		return windows;
	}

	/** The most expensive requests in flight at once, {@code null} for no bound. */
	public Integer concurrencyMax() {
		return concurrencyMax;
	}

	/** How long a lease lives if never handed back, {@code null} for the default. */
	public Duration concurrencyLease() {
		return concurrencyLease;
	}

	public boolean countRefused() {
		return countRefused;
	}

	/**
	 * One window: {@code limit} units per {@code duration}, or per period of
	 * {@code calendar}.
	 *
	 * @param name the window's name ({@code minute})
	 * @param limit units per window
	 * @param duration the window's length, whole seconds; {@code null} for a calendar
	 * window
	 * @param unit what the window counts: {@code requests}, or a unit the application
	 * reports after the handler ({@code tokens}; ADR 0012)
	 * @param calendar a calendar window's periods, {@code null} for a fixed window
	 * @param notifyAt its {@code notify-at} thresholds, whole percentages of the limit in
	 * (0, 100] ({@code QuotaThresholdEvent} once per key, period and threshold);
	 * {@code null} or empty for none
	 */
	public record WindowDefinition(String name, long limit, Duration duration, String unit, CalendarPeriod calendar,
			List<Integer> notifyAt) {

		public WindowDefinition {
			// copied as given, nulls included: the limiter's check names what is wrong
			notifyAt = (notifyAt != null) ? Collections.unmodifiableList(new ArrayList<>(notifyAt)) : List.of();
		}

		/** A fixed window of requests. */
		public WindowDefinition(String name, long limit, Duration duration) {
			this(name, limit, duration, Window.REQUESTS);
		}

		/** A fixed window counting {@code unit}. */
		public WindowDefinition(String name, long limit, Duration duration, String unit) {
			this(name, limit, duration, unit, null);
		}

		/** A window without {@code notify-at} thresholds. */
		public WindowDefinition(String name, long limit, Duration duration, String unit, CalendarPeriod calendar) {
			this(name, limit, duration, unit, calendar, List.of());
		}

		/** The same window with {@code notify-at} thresholds at {@code percents}. */
		public WindowDefinition withNotifyAt(List<Integer> percents) {
			return new WindowDefinition(name, limit, duration, unit, calendar, percents);
		}

	}

	/** Collects a definition; nothing is checked until the limiter uses it. */
	public static final class Builder {

		private final String name;

		private final List<WindowDefinition> windows = new ArrayList<>();

		private Integer concurrencyMax;

		private Duration concurrencyLease;

		private boolean countRefused;

		private Builder(String name) {
			this.name = name;
		}

		public Builder window(String windowName, long limit, Duration duration) {
			windows.add(new WindowDefinition(windowName, limit, duration));
			return this;
		}

		/** A window counting {@code unit} instead of requests. */
		public Builder window(String windowName, long limit, Duration duration, String unit) {
			windows.add(new WindowDefinition(windowName, limit, duration, unit));
			return this;
		}

		/**
		 * A calendar window counting {@code unit}: at most {@code limit} in each period
		 * of {@code calendar} (a plan's month in its customer's zone).
		 */
		public Builder window(String windowName, long limit, CalendarPeriod calendar, String unit) {
			windows.add(new WindowDefinition(windowName, limit, null, unit, calendar));
			return this;
		}

		/**
		 * {@code notify-at} thresholds, whole percentages of the limit, for the window
		 * added last: a {@code QuotaThresholdEvent} once per key, period and threshold.
		 * Checked as the property is when the limiter uses the definition.
		 * @throws IllegalStateException when no window was added yet
		 */
		public Builder notifyAt(Integer... percents) {
			if (windows.isEmpty()) {
				throw new IllegalStateException("notifyAt applies to the window added last: add a window first");
			}
			int last = windows.size() - 1;
			windows.set(last, windows.get(last).withNotifyAt(Arrays.asList(percents)));
			return this;
		}

		public Builder concurrency(int max, Duration lease) {
			this.concurrencyMax = max;
			this.concurrencyLease = lease;
			return this;
		}

		public Builder countRefused(boolean countRefused) {
			this.countRefused = countRefused;
			return this;
		}

		public BudgetDefinition build() {
			return new BudgetDefinition(this);
		}

	}

}
