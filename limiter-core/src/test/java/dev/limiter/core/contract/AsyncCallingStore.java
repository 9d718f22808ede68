package dev.limiter.core.contract;

import java.util.Objects;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;

/**
 * A store under contract test, called through its asynchronous methods: {@code take},
 * {@code reserve} and {@code renew} are the store's {@link RateLimitStore#takeAsync},
 * {@link RateLimitStore#reserveAsync} and {@link RateLimitStore#renewAsync}, read by
 * {@link AsyncCalls}; everything else passes through. A suite that runs unchanged over it
 * proves the asynchronous calls decide exactly as the synchronous ones.
 */
public final class AsyncCallingStore extends ForwardingRateLimitStore {

	private final RateLimitStore store;

	private final AsyncCalls calls;

	public AsyncCallingStore(RateLimitStore store, AsyncCalls calls) {
		this.store = Objects.requireNonNull(store, "store");
		this.calls = Objects.requireNonNull(calls, "calls");
	}

	@Override
	protected RateLimitStore delegate() {
		return store;
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		return calls.await(() -> store.takeAsync(budget, key, cost, expensive, nowMillis));
	}

	@Override
	public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		return calls.await(() -> store.reserveAsync(budget, key, amounts, expensive, nowMillis));
	}

	@Override
	public boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		return calls.await(() -> store.renewAsync(lease, expiresAtMillis, nowMillis));
	}

}
