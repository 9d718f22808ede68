package dev.limiter.core;

import java.time.Duration;
import java.util.Objects;

/**
 * At most {@code max} expensive requests in flight per key. Each admitted expensive
 * request holds a lease that is released when the request completes, or expires by itself
 * after {@code lease} so that a crashed instance cannot hold a slot forever.
 *
 * @param max leases held at once, at least 1
 * @param lease how long a lease lives if it is never released, at least one millisecond
 */
public record ConcurrencyBound(int max, Duration lease) {

	public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

	public ConcurrencyBound {
		Objects.requireNonNull(lease, "lease");
		if (max < 1) {
			throw new InvalidValueException(Field.MAX, "concurrency max ", "must be at least 1, was " + max);
		}
		if (lease.toMillis() < 1) {
			throw new InvalidValueException(Field.LEASE, "concurrency lease ", "must be at least 1ms, was " + lease);
		}
	}

	public long leaseMillis() {
		return lease.toMillis();
	}

	/**
	 * The values a concurrency bound checks, as {@link InvalidValueException#field()}
	 * names them.
	 */
	public enum Field {

		/** Leases held at once. */
		MAX,

		/** How long an unreleased lease lives. */
		LEASE

	}
}
