package dev.limiter.autoconfigure;

import java.time.Duration;

/** The Redis store. */
public class RedisStoreProperties {

	/** Prefix of every key the limiter writes to Redis. */
	private String keyPrefix = "limiter";

	/** How long one store call may take before the request is decided by the fallback. */
	private Duration timeout = Duration.ofSeconds(1);

	public String getKeyPrefix() {
		return keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public Duration getTimeout() {
		return timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

}
