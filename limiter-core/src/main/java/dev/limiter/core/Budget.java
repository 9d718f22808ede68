package dev.limiter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A named set of bounds that requests are counted against: one or more {@link Window
 * windows} and optionally a {@link ConcurrencyBound concurrency bound}. Immutable; build
 * with {@link #builder(String)}.
 */
public final class Budget {

	private final String name;

	private final List<Window> windows;

	private final ConcurrencyBound concurrency;

	private final boolean countRefused;

	/**
	 * How the quota is leased in slices; {@code null}: every decision goes to the store.
	 */
	private final SliceTerms slices;

	/** Whether every window is a fixed window: the stores' fastest path. */
	private final boolean allFixed;

	/** Whether some window counts a unit other than requests. */
	private final boolean hasUnits;

	/** Whether some window has {@code notify-at} thresholds. */
	private final boolean notifies;

	private Budget(Builder builder) {
		this.name = builder.name;
		// one or two windows (the usual) in a list whose reads are a field read
		this.windows = List.copyOf(builder.windows);
		this.concurrency = builder.concurrency;
		this.countRefused = builder.countRefused;
		this.slices = builder.slices;
		this.allFixed = this.windows.stream().allMatch(Window::fixed);
		this.hasUnits = !this.windows.stream().allMatch(Window::countsRequests);
		this.notifies = this.windows.stream().anyMatch((w) -> w.notifyAt().isPresent());
	}

	public static Builder builder(String name) {
		return new Builder(name);
	}

	public String name() {
		return name;
	}

	/** The windows, in the order they were declared. Never empty. */
	public List<Window> windows() {
		return windows;
	}

	/**
	 * Whether every window is a {@link WindowAlgorithm#FIXED_WINDOW fixed window}: such a
	 * budget takes the fixed windows' own arithmetic, one counter per window.
	 */
	public boolean allFixed() {
		return allFixed;
	}

	/**
	 * Whether some window counts a unit other than {@link Window#REQUESTS requests}: such
	 * a budget reserves an estimate per unit before the handler and is settled after it
	 * ({@link Reservation}).
	 */
	public boolean hasUnits() {
		return hasUnits;
	}

	/**
	 * Whether some window has {@link Window#notifyAt() notify-at} thresholds: a decision
	 * and a settlement then look for the thresholds they reached in the same store step.
	 */
	public boolean notifies() {
		return notifies;
	}

	/**
	 * What one request takes from each window, in window order: {@code cost} from a
	 * window of requests, the estimate of its unit (1 when none is given) from any other.
	 * A store rejects amounts that do not fit ({@link #checkAmounts}); what the filter
	 * reserves is {@link #reservedAmounts}.
	 * @param estimates per unit, the amount reserved before the handler runs; may be
	 * empty
	 */
	public long[] amounts(long cost, Map<String, Long> estimates) {
		long[] amounts = new long[windows.size()];
		for (int i = 0; i < amounts.length; i++) {
			Window w = windows.get(i);
			amounts[i] = w.countsRequests() ? cost : estimates.getOrDefault(w.unit(), 1L);
		}
		return amounts;
	}

	/**
	 * What a request reserves before its handler: {@link #amounts}, with each estimate
	 * capped at its window's {@link Window#capacity() capacity}. The cap is for a budget
	 * chosen at run time, which no start-up check saw ({@link BudgetEstimates#check}): an
	 * estimate is a guess that the settlement corrects, so reserving what the window can
	 * ever hold keeps the request admissible and counted, and the actual amount reported
	 * after the handler is still charged in full (ADR 0012). {@link #cappedWindow} tells
	 * which window capped. A window of requests takes {@code cost} as given.
	 */
	public long[] reservedAmounts(long cost, Map<String, Long> estimates) {
		long[] amounts = amounts(cost, estimates);
		for (int i = 0; i < amounts.length; i++) {
			Window w = windows.get(i);
			if (!w.countsRequests()) {
				amounts[i] = Math.min(amounts[i], w.capacity());
			}
		}
		return amounts;
	}

	/**
	 * The first window in a unit other than requests whose capacity is below the estimate
	 * of its unit, where {@link #amounts} reserves the capacity instead; empty when every
	 * estimate fits.
	 */
	public Optional<Window> cappedWindow(Map<String, Long> estimates) {
		if (!hasUnits || estimates.isEmpty()) {
			return Optional.empty();
		}
		for (Window w : windows) {
			if (!w.countsRequests() && estimates.getOrDefault(w.unit(), 1L) > w.capacity()) {
				return Optional.of(w);
			}
		}
		return Optional.empty();
	}

	/**
	 * {@link #checkCost} per window: each amount at least 1 and at most its window's
	 * capacity.
	 */
	public void checkAmounts(long[] amounts) {
		if (amounts.length != windows.size()) {
			throw new IllegalArgumentException(
					"budget '" + name + "' has " + windows.size() + " windows, " + amounts.length + " amounts given");
		}
		for (int i = 0; i < amounts.length; i++) {
			Window window = windows.get(i);
			if (amounts[i] < 1) {
				throw new InvalidValueException(Field.COST, "amount of window '" + window.name() + "' ",
						"must be at least 1, was " + amounts[i]);
			}
			if (amounts[i] > window.capacity()) {
				throw new InvalidValueException(Field.COST, "amount " + amounts[i] + " ",
						"exceeds the capacity " + window.capacity() + " of window '" + window.name() + "' of budget '"
								+ name + "': it could never be admitted");
			}
		}
	}

	/**
	 * Throws {@link IllegalArgumentException} unless {@code cost} could ever be admitted:
	 * at least 1 and at most the smallest window's {@link Window#capacity() capacity}
	 * (its limit; a token bucket's burst). A larger cost would be refused forever while
	 * every refusal promised a finite {@code Retry-After}; every store checks this before
	 * it counts anything.
	 */
	public void checkCost(long cost) {
		if (cost < 1) {
			throw new InvalidValueException(Field.COST, "cost ", "must be at least 1, was " + cost);
		}
		for (int i = 0; i < windows.size(); i++) {
			// Indexed: an iterator would be an allocation on every decision.
			Window window = windows.get(i);
			if (cost > window.capacity()) {
				throw new InvalidValueException(Field.COST, "cost " + cost + " ",
						"exceeds the " + window.algorithm().kind().capacityName() + " " + window.capacity()
								+ " of window '" + window.name() + "' of budget '" + name
								+ "': it could never be admitted");
			}
		}
	}

	public Optional<ConcurrencyBound> concurrency() {
		return Optional.ofNullable(concurrency);
	}

	/**
	 * Whether a refused request still spends from every window. Off by default: a loop
	 * hammering a closed window then spends nothing and the reset does not move.
	 */
	public boolean countRefused() {
		return countRefused;
	}

	/** How this budget's quota is leased in slices (ADR 0014); empty: never. */
	public Optional<SliceTerms> slices() {
		return Optional.ofNullable(slices);
	}

	@Override
	public boolean equals(Object o) {
		return o == this || o instanceof Budget other && name.equals(other.name) && windows.equals(other.windows)
				&& Objects.equals(concurrency, other.concurrency) && countRefused == other.countRefused
				&& Objects.equals(slices, other.slices);
	}

	@Override
	public int hashCode() {
		return Objects.hash(name, windows, concurrency, countRefused, slices);
	}

	@Override
	public String toString() {
		return "Budget[" + name + ", windows=" + windows + ", concurrency=" + concurrency + ", countRefused="
				+ countRefused + ((slices != null) ? ", slices=" + slices : "") + "]";
	}

	/**
	 * Validating builder: {@link #build()} throws an {@link InvalidValueException} naming
	 * what is wrong.
	 */
	public static final class Builder {

		private final String name;

		private final List<Window> windows = new ArrayList<>();

		private ConcurrencyBound concurrency;

		private boolean countRefused;

		private SliceTerms slices;

		private Builder(String name) {
			if (!BoundNames.isValidBudgetName(name)) {
				throw new InvalidValueException(Field.NAME, "",
						"budget name must match [A-Za-z0-9_-]{1,64}, was '" + name + "'");
			}
			this.name = name;
		}

		public Builder window(String windowName, long limit, Duration duration) {
			return window(Window.of(windowName, limit, duration));
		}

		public Builder window(Window window) {
			windows.add(Objects.requireNonNull(window, "window"));
			return this;
		}

		public Builder concurrency(int max, Duration lease) {
			this.concurrency = new ConcurrencyBound(max, lease);
			return this;
		}

		public Builder concurrency(ConcurrencyBound bound) {
			this.concurrency = bound;
			return this;
		}

		public Builder countRefused(boolean countRefused) {
			this.countRefused = countRefused;
			return this;
		}

		/** Leases the quota in slices ({@code null}: never, the default). */
		public Builder slices(SliceTerms slices) {
			this.slices = slices;
			return this;
		}

		public Budget build() {
			if (windows.isEmpty()) {
				throw new InvalidValueException(Field.WINDOWS, "", "budget '" + name + "' needs at least one window");
			}
			Set<String> seen = new HashSet<>();
			for (Window w : windows) {
				if (!seen.add(w.name())) {
					throw new InvalidValueException(Field.WINDOWS, "",
							"budget '" + name + "' declares window '" + w.name() + "' twice");
				}
			}
			return new Budget(this);
		}

	}

	/**
	 * The values a budget checks, as {@link InvalidValueException#field()} names them.
	 */
	public enum Field {

		/** The budget's name. */
		NAME,

		/** Its windows: at least one, each name once. */
		WINDOWS,

		/** The cost of one request ({@link #checkCost}). */
		COST,

		/** A route's estimate of one unit ({@link BudgetEstimates#check}). */
		ESTIMATE

	}

}
