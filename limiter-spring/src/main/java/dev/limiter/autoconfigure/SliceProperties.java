package dev.limiter.autoconfigure;

import java.time.Duration;

import dev.limiter.core.SliceTerms;

/**
 * Leased quota slices of one budget (ADR 0014): an instance takes a slice of every window
 * from the shared store and admits from it locally.
 */
public class SliceProperties {

	/**
	 * Whether this budget's quota is leased in slices; false (every decision on the
	 * store) by default.
	 */
	private boolean enabled;

	/**
	 * The most units one instance takes at once; 1 % of the smallest window's limit (at
	 * least 1) when unset.
	 */
	private Long max;

	/** How long an instance keeps an unused slice before giving it back. */
	private Duration ttl = SliceTerms.DEFAULT_TTL;

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Long getMax() {
		return max;
	}

	public void setMax(Long max) {
		this.max = max;
	}

	public Duration getTtl() {
		return ttl;
	}

	public void setTtl(Duration ttl) {
		this.ttl = ttl;
	}

}
