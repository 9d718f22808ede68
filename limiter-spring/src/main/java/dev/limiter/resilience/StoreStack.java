package dev.limiter.resilience;

import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.SlicedRateLimitStore;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.AuthGuardStoreProvider;
import dev.limiter.core.guard.StoreBackedAuthGuardStore;

/**
 * The one place that builds a store stack, for every store type: the limiter's store and
 * the guard's, in this process and remote. Any {@link RateLimitStore} plugs in as the raw
 * store. A remote stack, from the outside in:
 *
 * <pre>
 * SlicedRateLimitStore              a budget with slices admits from this instance's slice (ADR 0014)
 *   FailOpenRateLimitStore          fallback, fail-closed budgets, the outage's one WARN and one INFO
 *     CircuitBreakingRateLimitStore the shared breaker: an open one costs no round trip
 *       OverLimitRememberingStore   a key known over its limit is refused without a store call
 *         the raw store             Redis (or any remote store)
 * </pre>
 *
 * The slices are the fail-open store's {@link FailOpenRateLimitStore#front() front}: the
 * stack is a {@link FailOpenRateLimitStore} (its mode, probe and fallback, what health
 * and meters read), and each of its calls reaches the slices first. Why this order:
 * <ul>
 * <li>the slices are outermost, so that a local admission touches nothing below them: its
 * units were counted by the store when the slice was taken, so it is exact without a
 * store call, and asks neither the breaker's permission nor its records nor the outage's
 * bookkeeping. A slice is taken through everything below, as a {@code take} is: the
 * breaker guards and counts the slice call, the over-limit memory answers and learns from
 * it, and when it fails the fail-open store decides the request alone (degraded, nothing
 * held on a guess). The slices an instance holds are spent while the store is down, the
 * breaker open included: they are counted already;</li>
 * <li>the over-limit memory is innermost, so that it only ever remembers the store's own
 * refusals (never a fallback's guess, which would outlive the outage), and a refusal it
 * answers costs no store call; a slice never refuses by itself, so the memory below it
 * sees every refusal;</li>
 * <li>the breaker sits outside it and inside the fail-open store: every call that would
 * reach the store passes the breaker, and the fail-open store sees the breaker's refusals
 * as failures (decided by the fallback) and asks it whether it has closed again before it
 * ends an outage;</li>
 * <li>the fail-open store is outside the breaker: nothing the store or the breaker throws
 * reaches a filter, apart from a fail-closed budget's
 * {@code StoreUnavailableException}.</li>
 * </ul>
 * The guard's store over a remote stack is the raw store's own guard store (one round
 * trip per step) behind the same breaker instance and failing open the same way
 * ({@link FailurePolicy#protect(AuthGuardStore, AuthGuardPolicy)}). A stack in this
 * process is the over-limit memory around the store only: nothing there times out, and a
 * fallback would be the same kind of store; the guard counts through the limiter's store
 * ({@link StoreBackedAuthGuardStore}).
 */
public final class StoreStack {

	private StoreStack() {
	}

	/**
	 * The limiter's store for a store in this process holding at most {@code maxKeys}
	 * keys: never more keys remembered over their limit than it counts.
	 */
	public static RateLimitStore local(RateLimitStore store, int maxKeys) {
		return new OverLimitRememberingStore(store, Math.min(maxKeys, OverLimitRememberingStore.DEFAULT_MAX_ENTRIES));
	}

	/** The limiter's store for a remote store, under {@code policy}. */
	public static FailOpenRateLimitStore remote(RateLimitStore store, FailurePolicy policy) {
		return policy.protect(new OverLimitRememberingStore(store), SlicedRateLimitStore::new);
	}

	/**
	 * The guard's store beside the limiter's {@code limiterStore}: the remote store's own
	 * guard store under the same {@code failurePolicy} when {@code limiterStore} is a
	 * {@link #remote} stack over a store that offers one, else the guard's rules over the
	 * limiter's store itself.
	 */
	public static AuthGuardStore guard(RateLimitStore limiterStore, AuthGuardPolicy policy,
			FailurePolicy failurePolicy) {
		RateLimitStore raw = rawOfRemote(limiterStore);
		if (raw instanceof AuthGuardStoreProvider provider && failurePolicy != null) {
			return failurePolicy.protect(provider.authGuardStore(policy), policy);
		}
		if (limiterStore instanceof AuthGuardStoreProvider provider) {
			return provider.authGuardStore(policy);
		}
		return new StoreBackedAuthGuardStore(limiterStore, policy);
	}

	/** The raw store of a {@link #remote} stack, else {@code null}. */
	private static RateLimitStore rawOfRemote(RateLimitStore stack) {
		if (!(stack instanceof FailOpenRateLimitStore failOpen)) {
			return null;
		}
		RateLimitStore inner = failOpen.authoritative();
		if (inner instanceof CircuitBreakingRateLimitStore breaking) {
			inner = breaking.delegate();
		}
		return inner instanceof OverLimitRememberingStore remembering ? remembering.delegate() : inner;
	}

}
