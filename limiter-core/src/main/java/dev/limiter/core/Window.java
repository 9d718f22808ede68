package dev.limiter.core;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One rate bound of a budget: at most {@code limit} units per {@code duration}, counted
 * by its {@link WindowAlgorithm}. Immutable.
 *
 * <ul>
 * <li>{@link WindowAlgorithm#FIXED_WINDOW} (the default, {@link #of}): at most
 * {@code limit} in every interval {@code [floor(now / duration) * duration, start +
 * duration)}. Anchoring to the epoch rather than to a caller's first request is what lets
 * every instance, the store and the fallback compute the same boundaries without talking
 * to each other.</li>
 * <li>{@link WindowAlgorithm#SLIDING_WINDOW} ({@link #sliding}): never more than
 * {@code limit} in any span of length {@code duration}; admissions are kept in buckets of
 * {@link #resolutionMillis()} whose expiry is rounded later, so the bound holds exactly
 * and a caller waits at most one resolution step longer than a log of every admission
 * would make it (ADR 0008).</li>
 * <li>{@link WindowAlgorithm#TOKEN_BUCKET} ({@link #tokenBucket}): a bucket of
 * {@link #burst()} tokens refilled continuously at {@code limit} per {@code duration}
 * (ADR 0009).</li>
 * </ul>
 */
public final class Window {

	/** The coarsest default resolution of a sliding window: a sixtieth of its length. */
	public static final int DEFAULT_SLIDING_STEPS = 60;

	/** The finest default resolution of a sliding window. */
	public static final long MIN_DEFAULT_RESOLUTION_MILLIS = 1_000;

	/**
	 * The unit every window counted in before units: one per request (or the request's
	 * {@code cost}), known before the handler runs.
	 */
	public static final String REQUESTS = "requests";

	private final String name;

	private final long limit;

	private final Duration duration;

	/** The duration in milliseconds, kept because every decision divides by it. */
	private final long durationMillis;

	private final WindowAlgorithm algorithm;

	/** The bucket's size; the limit for the other algorithms. */
	private final long burst;

	/** A sliding window's bucket length; the duration for the other algorithms. */
	private final long resolutionMillis;

	/** What the window counts: {@link #REQUESTS} or an application's unit. */
	private final String unit;

	/** Its {@code max-report}, {@code null} when unset. */
	private final Long maxReport;

	/**
	 * A window of the {@link WindowAlgorithm#DEFAULT default algorithm}, a fixed window.
	 * @param name short name of the bound, such as {@code minute}; appears in headers and
	 * meters
	 * @param limit units admitted per window, at least 1
	 * @param duration length of the window, at least one millisecond
	 */
	public Window(String name, long limit, Duration duration) {
		this(name, limit, duration, WindowAlgorithm.DEFAULT, null, null);
	}

	/**
	 * A window of any algorithm.
	 * @param name short name of the bound
	 * @param limit units admitted per duration, at least 1
	 * @param duration the window's length (the bucket's refill period), at least one
	 * millisecond
	 * @param algorithm how it counts
	 * @param burst a token bucket's size, {@code null} for {@code limit}; only a token
	 * bucket takes one
	 * @param resolution a sliding window's bucket length, {@code null} for the default
	 * ({@link #defaultResolutionMillis}); only a sliding window takes one
	 */
	public Window(String name, long limit, Duration duration, WindowAlgorithm algorithm, Long burst,
			Duration resolution) {
		this(name, limit, duration, algorithm, burst, resolution, REQUESTS);
	}

	/**
	 * A window of any algorithm, as above, counting {@code unit}: {@link #REQUESTS}, or a
	 * unit the application reports after the handler ({@code tokens}, {@code rows}: 1 to
	 * 32 of {@code a-z 0-9 -}).
	 */
	public Window(String name, long limit, Duration duration, WindowAlgorithm algorithm, Long burst,
			Duration resolution, String unit) {
		this(name, limit, duration, algorithm, burst, resolution, unit, null);
	}

	private Window(String name, long limit, Duration duration, WindowAlgorithm algorithm, Long burst,
			Duration resolution, String unit, Long maxReport) {
		WindowChecks.check(name, limit, duration, algorithm, burst, resolution, unit);
		WindowChecks.checkMaxReport(name, unit, maxReport);
		long millis = duration.toMillis();
		this.name = name;
		this.limit = limit;
		this.duration = duration;
		this.durationMillis = millis;
		this.algorithm = algorithm;
		this.burst = (burst != null) ? burst : limit;
		this.resolutionMillis = algorithm.kind().resolutionMillis(millis, resolution);
		this.unit = unit;
		this.maxReport = maxReport;
	}

	/** This window with {@code max-report} set ({@code null}: unset; ADR 0012). */
	public Window withMaxReport(Long maxReport) {
		return copy(unit, maxReport);
	}

	/** This window counting {@code unit} instead, everything else kept. */
	public Window inUnit(String unit) {
		return copy(unit, maxReport);
	}

	private Window copy(String unit, Long maxReport) {
		WindowKind kind = algorithm.kind();
		return new Window(name, limit, duration, algorithm, kind.takesBurst() ? Long.valueOf(burst) : null,
				kind.takesResolution() ? Duration.ofMillis(resolutionMillis) : null, unit, maxReport);
	}

	/** A fixed window. */
	public static Window of(String name, long limit, Duration duration) {
		return new Window(name, limit, duration);
	}

	/** A sliding window of the default resolution. */
	public static Window sliding(String name, long limit, Duration duration) {
		return new Window(name, limit, duration, WindowAlgorithm.SLIDING_WINDOW, null, null);
	}

	/** A sliding window counted in buckets of {@code resolution}. */
	public static Window sliding(String name, long limit, Duration duration, Duration resolution) {
		return new Window(name, limit, duration, WindowAlgorithm.SLIDING_WINDOW, null, resolution);
	}

	/** A token bucket of {@code limit} tokens refilled at {@code limit} per duration. */
	public static Window tokenBucket(String name, long limit, Duration duration) {
		return new Window(name, limit, duration, WindowAlgorithm.TOKEN_BUCKET, null, null);
	}

	/** A token bucket of {@code burst} tokens refilled at {@code limit} per duration. */
	public static Window tokenBucket(String name, long limit, Duration duration, long burst) {
		return new Window(name, limit, duration, WindowAlgorithm.TOKEN_BUCKET, burst, null);
	}

	/**
	 * A sliding window's default bucket length: a sixtieth of its duration, never finer
	 * than a second, never longer than the duration.
	 */
	public static long defaultResolutionMillis(long durationMillis) {
		return Math.min(durationMillis,
				Math.max(MIN_DEFAULT_RESOLUTION_MILLIS, durationMillis / DEFAULT_SLIDING_STEPS));
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

	public WindowAlgorithm algorithm() {
		return algorithm;
	}

	/** What the window counts: {@link #REQUESTS} or an application's unit. */
	public String unit() {
		return unit;
	}

	/**
	 * Whether the window counts requests; otherwise it reserves an estimate, then
	 * settles.
	 */
	public boolean countsRequests() {
		return REQUESTS.equals(unit);
	}

	/** Whether this is a fixed window, the algorithm of every existing budget. */
	public boolean fixed() {
		return algorithm == WindowAlgorithm.FIXED_WINDOW;
	}

	/** A token bucket's size; the limit for the other algorithms. */
	public long burst() {
		return burst;
	}

	/**
	 * The most one request may cost: the bucket's size for a token bucket, the limit
	 * otherwise.
	 */
	public long capacity() {
		return algorithm.kind().capacity(this);
	}

	/** The {@code max-report} set for this window, empty for the ceiling alone. */
	public OptionalLong maxReport() {
		return (maxReport != null) ? OptionalLong.of(maxReport) : OptionalLong.empty();
	}

	/** A sliding window's bucket length; the duration for the other algorithms. */
	public long resolutionMillis() {
		return resolutionMillis;
	}

	/** Start of the fixed window that contains {@code nowMillis}. */
	public long startAt(long nowMillis) {
		return Math.floorDiv(nowMillis, durationMillis) * durationMillis;
	}

	/** End (exclusive) of the fixed window that contains {@code nowMillis}: its reset. */
	public long resetAt(long nowMillis) {
		return startAt(nowMillis) + durationMillis;
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof Window other && name.equals(other.name) && limit == other.limit
				&& durationMillis == other.durationMillis && algorithm == other.algorithm && burst == other.burst
				&& resolutionMillis == other.resolutionMillis && unit.equals(other.unit);
	}

	@Override
	public int hashCode() {
		int hash = fixed() ? Objects.hash(name, limit, durationMillis)
				: Objects.hash(name, limit, durationMillis, algorithm, burst, resolutionMillis);
		return countsRequests() ? hash : 31 * hash + unit.hashCode();
	}

	@Override
	public String toString() {
		String base = "Window[name=" + name + ", limit=" + limit + ", duration=" + duration
				+ (countsRequests() ? "" : ", unit=" + unit);
		return base + algorithm.kind().describe(this) + "]";
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
		DURATION,

		/** How the window counts ({@link WindowAlgorithm}). */
		ALGORITHM,

		/** A token bucket's size. */
		BURST,

		/** A sliding window's bucket length. */
		RESOLUTION,

		/** What the window counts ({@link Window#REQUESTS} or an application's unit). */
		UNIT,

		/** The most one report counts in the window. */
		MAX_REPORT

	}

}
