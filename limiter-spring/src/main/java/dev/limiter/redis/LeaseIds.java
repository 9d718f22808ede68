package dev.limiter.redis;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The ids of the leases one {@link RedisRateLimitStore} issues (decisions and the guard's
 * reservations alike): a random prefix of this store, then a sequence. The prefix also
 * names the store among the instances taking slices of a key ({@link RedisSlices}).
 */
final class LeaseIds implements Supplier<String> {

	private final String prefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";

	private final AtomicLong sequence = new AtomicLong();

	@Override
	public String get() {
		return prefix + Long.toHexString(sequence.incrementAndGet());
	}

	String prefix() {
		return prefix;
	}

}
