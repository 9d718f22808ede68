package dev.limiter.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How a budget's quota is leased in slices (ADR 0014): an instance takes at most
 * {@code max} units of every window at once from the shared store, counted there at once,
 * and admits from them locally until they are spent, their window instance ends, or they
 * go unused for {@code ttl} (a token bucket's: {@code ttl} after they were taken); what
 * is left then goes back.
 *
 * @param max the most units one instance takes at once, at least 1
 * @param ttl how long an instance keeps an unused slice, at least one millisecond
 */
public record SliceTerms(long max, Duration ttl) {

	/** How long an unused slice is kept by default. */
	public static final Duration DEFAULT_TTL = Duration.ofSeconds(1);

	public SliceTerms {
		Objects.requireNonNull(ttl, "ttl");
		if (max < 1) {
			throw new InvalidValueException(Field.MAX, "slices max ", "must be at least 1, was " + max);
		}
		if (ttl.toMillis() < 1) {
			throw new InvalidValueException(Field.TTL, "slices ttl ", "must be at least 1ms, was " + ttl);
		}
	}

	/**
	 * The default {@code max} for a budget: 1 % of its smallest window's limit, at least
	 * 1.
	 */
	public static long defaultMax(Budget budget) {
		long smallest = Long.MAX_VALUE;
		for (Window w : budget.windows()) {
			smallest = Math.min(smallest, w.limit());
		}
		return Math.max(1, smallest / 100);
	}

	public long ttlMillis() {
		return ttl.toMillis();
	}

	/**
	 * The shrink rule, the same in every store ({@code take.lua}'s slice mode): what one
	 * slice takes from every window when the windows have {@code remaining} units left
	 * between them (the fewest of any window) and {@code instances} instances took a
	 * slice of this key recently. Never more than {@code max}, never more than
	 * {@code remaining / (2 × instances)}, and never less than {@code cost}: near the
	 * limit a slice is the request itself, decided exactly as without slices.
	 */
	public static long size(long cost, long remaining, long max, long instances) {
		long share = Math.max(0, remaining) / (2 * Math.max(1, instances));
		return Math.max(cost, Math.min(max, share));
	}

	/**
	 * The values slice terms check, as {@link InvalidValueException#field()} names them.
	 */
	public enum Field {

		/** The most units one slice takes. */
		MAX,

		/** How long an unused slice is kept. */
		TTL

	}

}
