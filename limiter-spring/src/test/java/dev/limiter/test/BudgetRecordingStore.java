package dev.limiter.test;

import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.RateLimitStore;

/**
 * A store that tells {@code decided} the budget of every decision asked of it (take or
 * reserve, blocking or not) and leaves the deciding to {@code store}: for tests that
 * count which budget a request was decided on, and how many times.
 */
public final class BudgetRecordingStore extends ForwardingRateLimitStore {

	private final RateLimitStore store;

	private final Consumer<String> decided;

	public BudgetRecordingStore(RateLimitStore store, Consumer<String> decided) {
		this.store = store;
		this.decided = decided;
	}

	@Override
	protected RateLimitStore delegate() {
		return store;
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		decided.accept(budget.name());
		return store.take(budget, key, cost, expensive, nowMillis);
	}

	@Override
	public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		decided.accept(budget.name());
		return store.takeAsync(budget, key, cost, expensive, nowMillis);
	}

	@Override
	public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		decided.accept(budget.name());
		return store.reserve(budget, key, amounts, expensive, nowMillis);
	}

	@Override
	public CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
			long nowMillis) {
		decided.accept(budget.name());
		return store.reserveAsync(budget, key, amounts, expensive, nowMillis);
	}

	@Override
	public String name() {
		return "recording";
	}

}
