package dev.limiter.core.contract;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Settlement;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.ThresholdCrossing;

/**
 * The slice rule of ADR 0014 in Java, over any exact store (the in-memory one in the
 * tests): the request decided as by {@code take}; when every window has room for it, this
 * instance is counted as taking slices of the key, and the slice is
 * {@link SliceTerms#size} of the fewest units any window has left, counted in one take.
 * {@code take.lua}'s slice mode is the same rule, held equal by
 * {@code RedisSliceDifferentialTests}. One model is shared by several {@link #instance
 * instances} (as one Redis is), each a store that names itself; every call holds the
 * model's lock, so each step is atomic as a script is.
 */
public final class SlicingModelStore {

	private final RateLimitStore store;

	/** Per budget and key: when each instance last took a slice of it. */
	private final Map<String, Map<String, Long>> slicers = new HashMap<>();

	public SlicingModelStore(RateLimitStore store) {
		this.store = store;
	}

	/** The store one instance sees: the shared model, sliced under {@code name}. */
	public RateLimitStore instance(String name) {
		return new ForwardingRateLimitStore() {

			@Override
			protected RateLimitStore delegate() {
				return store;
			}

			@Override
			public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
				synchronized (SlicingModelStore.this) {
					return store.take(budget, key, cost, expensive, nowMillis);
				}
			}

			@Override
			public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
				return SlicingModelStore.this.takeSlice(name, budget, key, cost, terms, nowMillis);
			}

			@Override
			public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
				synchronized (SlicingModelStore.this) {
					return store.settle(settlement, nowMillis);
				}
			}

		};
	}

	private synchronized Slice takeSlice(String instance, Budget budget, String key, long cost, SliceTerms terms,
			long nowMillis) {
		budget.checkCost(cost);
		long left = Long.MAX_VALUE;
		for (BoundVerdict v : store.peek(budget, key, nowMillis).bounds()) {
			if (!v.concurrency()) {
				left = Math.min(left, v.remaining());
			}
		}
		long size = cost;
		if (left >= cost) {
			Map<String, Long> seen = slicers.computeIfAbsent(budget.name() + "\u0000" + key, (k) -> new HashMap<>());
			seen.put(instance, nowMillis);
			long since = nowMillis - 2 * terms.ttlMillis();
			seen.values().removeIf((at) -> at < since);
			size = SliceTerms.size(cost, left, terms.max(), seen.size());
		}
		Decision decision = store.take(budget, key, size, false, nowMillis);
		return new Slice(decision, decision.allowed() ? size : 0);
	}

}
