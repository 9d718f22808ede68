package dev.limiter.core;

import java.time.Duration;

/**
 * A token bucket (ADR 0009): {@code burst} tokens refilled at {@code limit} per duration,
 * one refill interval at least a millisecond; a settlement moves its theoretical arrival
 * time whenever it comes (instance 0, always landing), in millisecond-tokens, so a report
 * is at most {@code MAX_UNITS / duration}. Its stored fraction is in units of the refill
 * interval, so another limit starts afresh.
 */
final class TokenBucketKind implements WindowKind {

	/** The largest debt a full bucket may hold, in millisecond-tokens: {@code 2^53}. */
	private static final long MAX_BUCKET_MILLI_TOKENS = 1L << 53;

	@Override
	public void check(String name, long limit, Duration duration, Long burst, Duration resolution) {
		if (burst != null && burst < 1) {
			throw new InvalidValueException(Window.Field.BURST, "window '" + name + "': burst ",
					"must be at least 1, was " + burst);
		}
		if (duration.toMillis() < limit) {
			throw new InvalidValueException(Window.Field.LIMIT, "window '" + name + "': limit ",
					"must be at most the duration in milliseconds for a " + WindowAlgorithm.TOKEN_BUCKET.value()
							+ " (its refill interval, duration / limit, must be at least 1ms), was " + limit + " per "
							+ duration);
		}
		// A full bucket's debt is burst x duration in millisecond-tokens: it must stay
		// exact
		// in the Redis scripts' numbers (2^53) for the two stores to agree.
		long capacity = (burst != null) ? burst : limit;
		if (capacity > MAX_BUCKET_MILLI_TOKENS / duration.toMillis()) {
			throw new InvalidValueException((burst != null) ? Window.Field.BURST : Window.Field.LIMIT,
					"window '" + name + "': " + ((burst != null) ? "burst " : "limit "),
					"times the duration in milliseconds must be at most 2^53 for a "
							+ WindowAlgorithm.TOKEN_BUCKET.value() + ", was " + capacity + " over " + duration);
		}
		WindowChecks.rejectResolution(name, resolution, WindowAlgorithm.TOKEN_BUCKET);
	}

	@Override
	public boolean takesBurst() {
		return true;
	}

	@Override
	public long capacity(Window window) {
		return window.burst();
	}

	@Override
	public String capacityName() {
		return "burst";
	}

	@Override
	public long reservedInstance(Window window, BoundVerdict verdict) {
		return 0;
	}

	@Override
	public boolean lands(Window window, long instance, long nowMillis) {
		return true;
	}

	/**
	 * Tokens taken stay taken: the bucket never holds more than its burst, and a slice's
	 * tokens are spent within its ttl (ADR 0014 states what that means for a span).
	 */
	@Override
	public long sliceEndMillis(Window window, long instance, long nowMillis) {
		return Long.MAX_VALUE;
	}

	/**
	 * Until the bucket would be full again (the slice's reset): once it was full, tokens
	 * given back would be tokens the bucket has already refilled.
	 */
	@Override
	public long sliceGiveBackUntil(Window window, BoundVerdict verdict) {
		return verdict.resetAtMillis();
	}

	@Override
	public long settlementCeiling(Window window) {
		return Math.max(1, SettlementBounds.MAX_UNITS / window.durationMillis());
	}

	@Override
	public boolean keepsState(Window before, Window now) {
		return before.limit() == now.limit();
	}

	@Override
	public String describe(Window window) {
		return ", algorithm=" + window.algorithm() + ", burst=" + window.burst();
	}

}
