package dev.limiter.core.contract;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;

/**
 * A test store that is down: every call throws {@link RateLimitStoreException}, or the
 * failure it was given.
 */
public final class DownRateLimitStore implements RateLimitStore {

	private final String name;

	private final RuntimeException failure;

	public DownRateLimitStore(String name) {
		this(name, null);
	}

	/** A store whose every call throws {@code failure} itself. */
	public DownRateLimitStore(String name, RuntimeException failure) {
		this.name = name;
		this.failure = failure;
	}

	private RuntimeException failure() {
		return (failure != null) ? failure : new RateLimitStoreException("down");
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		throw failure();
	}

	@Override
	public void release(Lease lease, long nowMillis) {
		throw failure();
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		throw failure();
	}

	@Override
	public void reset(Budget budget, String key) {
		throw failure();
	}

	@Override
	public String name() {
		return name;
	}

}
