package dev.limiter.core;

import java.time.Duration;
import java.util.Objects;

/**
 * A fixed window anchored to the wall clock: at most {@code limit} units in every
 * interval {@code [floor(now / duration) * duration, start + duration)}. Immutable.
 *
 * <p>
 * Anchoring to the epoch rather than to a caller's first request is what lets every
 * instance, the store and the fallback compute the same boundaries without talking to
 * each other.
 */
public final class Window {

	private final String name;

	private final long limit;

	private final Duration duration;

	/** The duration in milliseconds, kept because every decision divides by it. */
	private final long durationMillis;

	/**
	 * @param name short name of the bound, such as {@code minute}; appears in headers and
	 * meters
	 * @param limit units admitted per window, at least 1
	 * @param duration length of the window, at least one millisecond
	 */
	public Window(String name, long limit, Duration duration) {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(duration, "duration");
		if (!BoundNames.isValid(name)) {
			throw new InvalidValueException(Field.NAME, "", "window name must match [A-Za-z0-9_-]{1,32} and not be '"
					+ BoundNames.CONCURRENCY + "', was '" + name + "'");
		}
		if (limit < 1) {
			throw new InvalidValueException(Field.LIMIT, "window '" + name + "': limit ",
					"must be at least 1, was " + limit);
		}
		if (duration.toMillis() < 1) {
			throw new InvalidValueException(Field.DURATION, "window '" + name + "': duration ",
					"must be at least 1ms, was " + duration);
		}
		this.name = name;
		this.limit = limit;
		this.duration = duration;
		this.durationMillis = duration.toMillis();
	}

	public static Window of(String name, long limit, Duration duration) {
		return new Window(name, limit, duration);
	}

	public String name() {
		return name;
	}

	public long limit() {
		return limit;
	}

	public Duration duration() {
		return duration;
	}

	public long durationMillis() {
		return durationMillis;
	}

	/** Start of the window that contains {@code nowMillis}. */
	public long startAt(long nowMillis) {
		return Math.floorDiv(nowMillis, durationMillis) * durationMillis;
	}

	/**
	 * End (exclusive) of the window that contains {@code nowMillis}: when its count
	 * resets.
	 */
	public long resetAt(long nowMillis) {
		return startAt(nowMillis) + durationMillis;
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof Window other && name.equals(other.name) && limit == other.limit
				&& durationMillis == other.durationMillis;
	}

	@Override
	public int hashCode() {
		return Objects.hash(name, limit, durationMillis);
	}

	@Override
	public String toString() {
		return "Window[name=" + name + ", limit=" + limit + ", duration=" + duration + "]";
	}

	/**
	 * The values a window checks, as {@link InvalidValueException#field()} names them.
	 */
	public enum Field {

		/** The window's name. */
		NAME,

		/** Units admitted per window. */
		LIMIT,

		/** The window's length. */
		DURATION

	}

}
