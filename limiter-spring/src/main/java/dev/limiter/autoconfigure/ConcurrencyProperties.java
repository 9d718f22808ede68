package dev.limiter.autoconfigure;

import java.time.Duration;

import dev.limiter.core.ConcurrencyBound;

/** Bound on expensive requests in flight per key. */
public class ConcurrencyProperties {

	/** Expensive requests in flight at once per key; at least 1. */
	private Integer max;

	/** How long a lease lives if the request never hands it back. */
	private Duration lease = ConcurrencyBound.DEFAULT_LEASE;

	public ConcurrencyProperties() {
	}

	ConcurrencyProperties(int max, Duration lease) {
		this.max = max;
		this.lease = lease;
	}

	public Integer getMax() {
		return max;
	}

	public void setMax(Integer max) {
		this.max = max;
	}

	public Duration getLease() {
		return lease;
	}

	public void setLease(Duration lease) {
		this.lease = lease;
	}

}
