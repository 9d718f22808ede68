package dev.limiter.core;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A store that hands every call to {@link #delegate()}: a decorator (or a test's store)
 * overrides only the calls it changes, instead of writing the whole SPI again. The
 * asynchronous calls ({@link #takeAsync}, {@link #reserveAsync}, {@link #renewAsync}) are
 * forwarded as themselves, so that a store that answers without blocking still does
 * behind a decorator: a decorator that changes {@link #take} changes {@link #takeAsync}
 * too.
 */
public abstract class ForwardingRateLimitStore implements RateLimitStore {

	protected abstract RateLimitStore delegate();

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		return delegate().take(budget, key, cost, expensive, nowMillis);
	}

	@Override
	public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		return delegate().reserve(budget, key, amounts, expensive, nowMillis);
	}

	@Override
	public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		return delegate().takeAsync(budget, key, cost, expensive, nowMillis);
	}

	@Override
	public CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
			long nowMillis) {
		return delegate().reserveAsync(budget, key, amounts, expensive, nowMillis);
	}

	@Override
	public CompletionStage<Boolean> renewAsync(Lease lease, long expiresAtMillis, long nowMillis) {
		return delegate().renewAsync(lease, expiresAtMillis, nowMillis);
	}

	@Override
	public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
		return delegate().settle(settlement, nowMillis);
	}

	@Override
	public void release(Lease lease, long nowMillis) {
		delegate().release(lease, nowMillis);
	}

	@Override
	public boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		return delegate().renew(lease, expiresAtMillis, nowMillis);
	}

	@Override
	public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		return delegate().takeSlice(budget, key, cost, terms, nowMillis);
	}

	@Override
	public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
			long nowMillis) {
		return delegate().takeSliceAsync(budget, key, cost, terms, nowMillis);
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		return delegate().peek(budget, key, nowMillis);
	}

	@Override
	public void reset(Budget budget, String key) {
		delegate().reset(budget, key);
	}

	@Override
	public String name() {
		return delegate().name();
	}

}
