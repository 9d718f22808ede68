package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.List;

/**
 * One window: a fixed window anchored to the wall clock unless {@code algorithm} says
 * otherwise.
 */
public class WindowProperties {

	/**
	 * Requests admitted per window (a token bucket's refill per duration); at least 1.
	 */
	private Long limit;

	/** Length of the window, such as 1m or 1h; positive. Unset when calendar is set. */
	private Duration duration;

	/**
	 * A calendar window's period instead of a duration: day, week, month or year, each
	 * from local midnight of its first day in zone.
	 */
	private String calendar;

	/**
	 * A calendar window's time zone, an IANA id such as Europe/Berlin; defaults to UTC.
	 */
	private String zone;

	/** A calendar week's first day (monday ... sunday); defaults to monday. */
	private String weekStart;

	/**
	 * Shares of the limit at which the application is told, once per key and period, that
	 * a key's usage reached them (a QuotaThresholdEvent), such as [80%, 100%]; whole
	 * percentages in (0%, 100%]. A fixed-window or calendar window only.
	 */
	private List<String> notifyAt;

	/**
	 * How the window counts: fixed-window (default), sliding-window or token-bucket;
	 * calendar (implied by setting calendar).
	 */
	private String algorithm;

	/** A token-bucket's size, the requests it admits at once; defaults to the limit. */
	private Long burst;

	/**
	 * A sliding-window's bucket length; defaults to a sixtieth of the duration, never
	 * finer than 1s.
	 */
	private Duration resolution;

	/**
	 * What the window counts: requests (default), or a unit the application reports after
	 * the handler (1 to 32 of a-z, 0-9 and '-', such as tokens).
	 */
	private String unit;

	/**
	 * The most one report counts in this window (a window in a unit other than requests);
	 * above it the report is clamped and counted in limiter.settlements.dropped
	 * (reason=clamped). At least 1; unset, the limiter's ceiling (2^50, a token bucket's
	 * 2^50 / its duration in ms).
	 */
	private Long maxReport;

	public WindowProperties() {
	}

	WindowProperties(long limit, Duration duration) {
		this.limit = limit;
		this.duration = duration;
	}

	public Long getLimit() {
		return limit;
	}

	public void setLimit(Long limit) {
		this.limit = limit;
	}

	public String getAlgorithm() {
		return algorithm;
	}

	public void setAlgorithm(String algorithm) {
		this.algorithm = algorithm;
	}

	public Long getBurst() {
		return burst;
	}

	public void setBurst(Long burst) {
		this.burst = burst;
	}

	public Duration getResolution() {
		return resolution;
	}

	public void setResolution(Duration resolution) {
		this.resolution = resolution;
	}

	public String getUnit() {
		return unit;
	}

	public void setUnit(String unit) {
		this.unit = unit;
	}

	public Long getMaxReport() {
		return this.maxReport;
	}

	public void setMaxReport(Long maxReport) {
		this.maxReport = maxReport;
	}

	public String getCalendar() {
		return calendar;
	}

	public void setCalendar(String calendar) {
		this.calendar = calendar;
	}

	public String getZone() {
		return zone;
	}

	public void setZone(String zone) {
		this.zone = zone;
	}

	public String getWeekStart() {
		return weekStart;
	}

	public void setWeekStart(String weekStart) {
		this.weekStart = weekStart;
	}

	public List<String> getNotifyAt() {
		return notifyAt;
	}

	public void setNotifyAt(List<String> notifyAt) {
		this.notifyAt = notifyAt;
	}

	public Duration getDuration() {
		return duration;
	}

	public void setDuration(Duration duration) {
		this.duration = duration;
	}

}
