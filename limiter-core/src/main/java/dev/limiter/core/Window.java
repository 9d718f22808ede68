package dev.limiter.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One rate bound of a budget: at most {@code limit} units per {@code duration}, counted
 * by its {@link WindowAlgorithm}. Immutable.
 *
 * A fixed window (the default, {@link #of}) counts in every interval
 * {@code [floor(now / duration) * duration, start + duration)}: anchored to the epoch, so
 * every instance, the store and the fallback compute the same boundaries without talking
 * to each other. A sliding window ({@link #sliding}, ADR 0008), a token bucket
 * ({@link #tokenBucket}, ADR 0009) and a calendar window ({@link #calendar}: its
 * {@code duration} is the period's average length) count as {@link WindowAlgorithm} says.
 */
public final class Window {

	/** The coarsest default resolution of a sliding window: a sixtieth of its length. */
	public static final int DEFAULT_SLIDING_STEPS = 60;

	/** The finest default resolution of a sliding window. */
	public static final long MIN_DEFAULT_RESOLUTION_MILLIS = 1_000;

	/** One per request (or its {@code cost}), known before the handler runs. */
	public static final String REQUESTS = "requests";

	private final String name;

	private final long limit;

	private final Duration duration;

	/** The duration in milliseconds, kept because every decision divides by it. */
	private final long durationMillis;

	/**
	 * The duration over the limit, whole milliseconds and remainder: a token bucket's
	 * time per token, which every admission of one token adds (kept because a division is
	 * the dearest step of such an admission).
	 */
	private final long perUnitMillis;

	private final long perUnitRemainder;

	private final WindowAlgorithm algorithm;

	private final long burst;

	private final long resolutionMillis;

	private final String unit;

	private final Long maxReport;

	/** A calendar window's periods, {@code null} for the other algorithms. */
	private final CalendarPeriod calendar;

	/** Its {@code notify-at} thresholds, {@code null} for none. */
	private final NotifyAt notifyAt;

	/** A fixed window of requests (its values as below). */
	public Window(String name, long limit, Duration duration) {
		this(name, limit, duration, WindowAlgorithm.DEFAULT, null, null);
	}

	/**
	 * A window of any algorithm: {@code limit} (at least 1) per {@code duration} (at
	 * least 1 ms; a bucket's refill period); {@code burst} a token bucket's size
	 * ({@code null}: the limit), {@code resolution} a sliding window's bucket
	 * ({@code null}: the default); a {@code name} such as {@code minute} appears in
	 * headers and meters.
	 */
	public Window(String name, long limit, Duration duration, WindowAlgorithm algorithm, Long burst,
			Duration resolution) {
		this(name, limit, duration, algorithm, burst, resolution, REQUESTS);
	}

	/** As above, counting {@code unit}: requests, or one reported after the handler. */
	public Window(String name, long limit, Duration duration, WindowAlgorithm algorithm, Long burst,
			Duration resolution, String unit) {
		this(name, limit, duration, algorithm, burst, resolution, unit, null, null, null);
	}

	private Window(String name, long limit, Duration duration, WindowAlgorithm algorithm, Long burst,
			Duration resolution, String unit, Long maxReport, CalendarPeriod calendar, NotifyAt notifyAt) {
		WindowChecks.check(name, limit, duration, algorithm, burst, resolution, unit);
		WindowChecks.checkOptions(name, algorithm, unit, maxReport, calendar, notifyAt);
		this.name = name;
		this.limit = limit;
		this.duration = duration;
		this.durationMillis = duration.toMillis();
		this.perUnitMillis = durationMillis / limit;
		this.perUnitRemainder = durationMillis % limit;
		this.algorithm = algorithm;
		this.burst = (burst != null) ? burst : limit;
		this.resolutionMillis = algorithm.kind().resolutionMillis(durationMillis, resolution);
		this.unit = unit;
		this.maxReport = maxReport;
		this.calendar = calendar;
		this.notifyAt = notifyAt;
	}

	/** This window with {@code max-report} set ({@code null}: unset; ADR 0012). */
	public Window withMaxReport(Long maxReport) {
		return copy(unit, maxReport, notifyAt);
	}

	/** This window counting {@code unit} instead, everything else kept. */
	public Window inUnit(String unit) {
		return copy(unit, maxReport, notifyAt);
	}

	/** This window with {@code notify-at} thresholds ({@code null}: none). */
	public Window withNotifyAt(NotifyAt notifyAt) {
		return copy(unit, maxReport, notifyAt);
	}

	private Window copy(String unit, Long maxReport, NotifyAt notifyAt) {
		WindowKind kind = algorithm.kind();
		return new Window(name, limit, duration, algorithm, kind.takesBurst() ? Long.valueOf(burst) : null,
				kind.takesResolution() ? Duration.ofMillis(resolutionMillis) : null, unit, maxReport, calendar,
				notifyAt);
	}

	/** A calendar window of requests: at most {@code limit} in each period. */
	public static Window calendar(String name, long limit, CalendarPeriod period) {
		return new Window(name, limit, period.nominalLength(), WindowAlgorithm.CALENDAR, null, null, REQUESTS, null,
				period, null);
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

	/** A sliding window's default bucket: 1/60 of its duration, within [1s, duration]. */
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

	/** Whether it counts requests; otherwise it reserves an estimate, then settles. */
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

	/** The most one request may cost: a token bucket's size, the limit otherwise. */
	public long capacity() {
		return algorithm.kind().capacity(this);
	}

	/** The {@code max-report} set for this window, empty for the ceiling alone. */
	public OptionalLong maxReport() {
		return (maxReport != null) ? OptionalLong.of(maxReport) : OptionalLong.empty();
	}

	/**
	 * {@code duration / limit} in whole milliseconds, rounded down: a token bucket's time
	 * per token, less {@link #perUnitRemainder()} over the limit.
	 */
	public long perUnitMillis() {
		return perUnitMillis;
	}

	/**
	 * {@code duration % limit}, in milliseconds: what {@link #perUnitMillis()} leaves.
	 */
	public long perUnitRemainder() {
		return perUnitRemainder;
	}

	/** A sliding window's bucket length; the duration for the other algorithms. */
	public long resolutionMillis() {
		return resolutionMillis;
	}

	/** Its {@code notify-at} thresholds; empty for none. */
	public Optional<NotifyAt> notifyAt() {
		return Optional.ofNullable(notifyAt);
	}

	/** A calendar window's periods; empty for the other algorithms. */
	public Optional<CalendarPeriod> calendar() {
		return Optional.ofNullable(calendar);
	}

	/** Start of the fixed window (the period) containing {@code nowMillis}. */
	public long startAt(long nowMillis) {
		return (calendar != null) ? calendar.startAt(nowMillis)
				: Math.floorDiv(nowMillis, durationMillis) * durationMillis;
	}

	/** End (exclusive: its reset) of the window (period) containing {@code nowMillis}. */
	public long resetAt(long nowMillis) {
		return (calendar != null) ? calendar.endAt(nowMillis) : startAt(nowMillis) + durationMillis;
	}

	/** Length of the window ending at {@code resetAtMillis}: a calendar period's own. */
	public long periodMillisEndingAt(long resetAtMillis) {
		return (calendar != null) ? calendar.lengthEndingAt(resetAtMillis) : durationMillis;
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof Window other && name.equals(other.name) && limit == other.limit
				&& durationMillis == other.durationMillis && algorithm == other.algorithm && burst == other.burst
				&& resolutionMillis == other.resolutionMillis && unit.equals(other.unit)
				&& Objects.equals(calendar, other.calendar) && Objects.equals(notifyAt, other.notifyAt);
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
		MAX_REPORT,

		/** A calendar window's period: day, week, month or year. */
		CALENDAR,

		/** A calendar window's time zone. */
		ZONE,

		/** A calendar week's first day. */
		WEEK_START,

		/** The thresholds at which the application is told of a key's usage. */
		NOTIFY_AT

	}

}
