package dev.limiter.autoconfigure;

/** Where counters live. */
public enum StoreType {

	/** Counters in this process: one instance, nothing to install. */
	MEMORY,
	/** Counters in Redis through spring-data-redis: exact across every instance. */
	REDIS

}
