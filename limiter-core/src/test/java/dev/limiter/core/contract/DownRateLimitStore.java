package dev.limiter.core.contract;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;

/** A test store that is down: every call throws {@link RateLimitStoreException}. */
public final class DownRateLimitStore implements RateLimitStore {

	private final String name;

	public DownRateLimitStore(String name) {
		this.name = name;
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		throw new RateLimitStoreException("down");
	}

	@Override
	public void release(Lease lease, long nowMillis) {
		throw new RateLimitStoreException("down");
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		throw new RateLimitStoreException("down");
	}

	@Override
	public void reset(Budget budget, String key) {
		throw new RateLimitStoreException("down");
	}

	@Override
	public String name() {
		return name;
	}

}
