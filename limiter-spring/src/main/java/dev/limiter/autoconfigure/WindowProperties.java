package dev.limiter.autoconfigure;

import java.time.Duration;

/** One fixed window anchored to the wall clock. */
public class WindowProperties {

	/** Requests admitted per window; at least 1. */
	private Long limit;

	/** Length of the window, such as 1m or 1h; positive. */
	private Duration duration;

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

	public Duration getDuration() {
		return duration;
	}

	public void setDuration(Duration duration) {
		this.duration = duration;
	}

}
