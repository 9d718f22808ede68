package dev.limiter.autoconfigure;

/** The limiter's meters (with Micrometer and a {@code MeterRegistry}). */
public class MetricsProperties {

	/**
	 * Share of a window left, between 0 and 1 (exclusive), below which an admitted
	 * request counts in limiter.near.limit.
	 */
	private double nearLimitThreshold = 0.2;

	/**
	 * Whether limiter.store.latency publishes a percentile histogram (buckets a dashboard
	 * reads with histogram_quantile).
	 */
	private boolean storeLatencyHistogram = true;

	public double getNearLimitThreshold() {
		return nearLimitThreshold;
	}

	public void setNearLimitThreshold(double nearLimitThreshold) {
		this.nearLimitThreshold = nearLimitThreshold;
	}

	public boolean isStoreLatencyHistogram() {
		return storeLatencyHistogram;
	}

	public void setStoreLatencyHistogram(boolean storeLatencyHistogram) {
		this.storeLatencyHistogram = storeLatencyHistogram;
	}

}
