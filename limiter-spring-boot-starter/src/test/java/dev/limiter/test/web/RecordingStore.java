package dev.limiter.test.web;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;

/**
 * A fresh in-memory store per test that remembers which leases were released and which
 * keys were counted.
 */
public final class RecordingStore extends ForwardingRateLimitStore {

	private volatile RateLimitStore delegate = RateLimitStores.inMemory(1000);

	private final List<Lease> released = new CopyOnWriteArrayList<>();

	private final List<String> keys = new CopyOnWriteArrayList<>();

	public void clear() {
		delegate = RateLimitStores.inMemory(1000);
		released.clear();
		keys.clear();
	}

	public List<Lease> released() {
		return released;
	}

	public List<String> keys() {
		return keys;
	}

	@Override
	protected RateLimitStore delegate() {
		return delegate;
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		keys.add(budget.name() + "/" + key);
		return delegate.take(budget, key, cost, expensive, nowMillis);
	}

	@Override
	public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		keys.add(budget.name() + "/" + key);
		return super.takeAsync(budget, key, cost, expensive, nowMillis);
	}

	@Override
	public void release(Lease lease, long nowMillis) {
		released.add(lease);
		delegate.release(lease, nowMillis);
	}

	@Override
	public String name() {
		return "recording";
	}

}
