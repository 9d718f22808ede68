package dev.limiter.resilience;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.Window;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * The limiter's one failure policy, for the limiter's store and the guard's alike: what
 * happens when a store call fails, times out, or finds the breaker open. Read top-down:
 * <ol>
 * <li><b>Every call of a remote store passes one breaker</b>
 * ({@link StoreCircuitBreaker}, Resilience4j's {@code limiter} breaker, one instance
 * shared by the limiter's store and the guard's): a call that throws or runs past the
 * request's store time ({@code limiter.redis.timeout}, shared by every call of one
 * request) is a failure; while the breaker is open a call fails at once with a
 * {@link dev.limiter.core.StoreNotCalledException} whose cause is the store's last real
 * error, and costs no round trip. Releases and success settlements are not counted.</li>
 * <li><b>A failed or refused call is decided by a bounded in-process fallback</b> with
 * the same rules ({@link FailOpenRateLimitStore}, {@link FailOpenAuthGuardStore}), marked
 * degraded ({@code X-RateLimit-Degraded: true}); a lease goes back to the store that
 * issued it. A budget in {@code limiter.fail-closed-budgets} gets a
 * {@link dev.limiter.core.StoreUnavailableException} instead (503, the breaker's open
 * wait as its retry-after).</li>
 * <li><b>If even the fallback fails</b>, or a store this policy does not wrap fails (an
 * application's own store), the request is admitted and counted nowhere: an explicit
 * {@link #uncounted} decision, degraded, never {@code null} and never a 500; the guard's
 * lookups go on unguarded. Both filters' last resorts log through the logs made here
 * ({@link #uncountedAdmissionsLog}, {@link #unguardedLookupsLog}).</li>
 * <li><b>One WARN and one INFO per outage</b> ({@link OutageLog}): the mode changes once
 * per outage, and only a success once the breaker has closed again ends it (an admission,
 * or the read with which a health check probes a degraded store,
 * {@link FailOpenRateLimitStore#probe}), so a half-open breaker's refusals never read as
 * a second outage.</li>
 * </ol>
 * {@link StoreStack} puts these pieces in their order around a store.
 */
public final class FailurePolicy {

	private final StoreCircuitBreaker breaker;

	private final int fallbackMaxKeys;

	private final Set<String> failClosedBudgets;

	private final List<StoreModeListener> listeners;

	/**
	 * @param breaker the breaker every remote call passes
	 * @param fallbackMaxKeys bound on each fallback's keys
	 * @param failClosedBudgets names of the budgets that refuse instead of falling back
	 * @param listeners told of each change of mode of the limiter's store
	 */
	public FailurePolicy(CircuitBreaker breaker, int fallbackMaxKeys, Set<String> failClosedBudgets,
			List<StoreModeListener> listeners) {
		this.breaker = new StoreCircuitBreaker(breaker);
		this.fallbackMaxKeys = fallbackMaxKeys;
		this.failClosedBudgets = Set.copyOf(failClosedBudgets);
		this.listeners = List.copyOf(listeners);
	}

	/** The limiter's remote store behind the breaker, failing open onto the fallback. */
	public FailOpenRateLimitStore protect(RateLimitStore remote) {
		return protect(remote, UnaryOperator.identity());
	}

	/**
	 * {@link #protect(RateLimitStore)} with a decorator in front of the fail-open
	 * decisions ({@link FailOpenRateLimitStore#front()}): what it answers by itself
	 * passes neither the breaker nor the fallback, what it asks of the store passes both.
	 */
	public FailOpenRateLimitStore protect(RateLimitStore remote, UnaryOperator<RateLimitStore> inFront) {
		long closedRetryAfter = breaker.circuitBreaker()
			.getCircuitBreakerConfig()
			.getWaitIntervalFunctionInOpenState()
			.apply(1);
		CircuitBreakingRateLimitStore guarded = new CircuitBreakingRateLimitStore(remote, breaker);
		return new FailOpenRateLimitStore(guarded, fallbackMaxKeys, budget -> failClosedBudgets.contains(budget.name()),
				closedRetryAfter, new StoreModeListener() {
					@Override
					public void degraded(String store, Throwable cause) {
						listeners.forEach(l -> l.degraded(store, cause));
					}

					@Override
					public void recovered(String store) {
						listeners.forEach(l -> l.recovered(store));
					}
				}, guarded::settled, inFront);
	}

	/**
	 * The guard's remote store behind the same breaker as the limiter's, failing open
	 * onto a fallback applying {@code policy}.
	 */
	public FailOpenAuthGuardStore protect(AuthGuardStore remote, AuthGuardPolicy policy) {
		return new FailOpenAuthGuardStore(new CircuitBreakingAuthGuardStore(remote, breaker), policy, fallbackMaxKeys);
	}

	/**
	 * Nothing could count this request: admitted, degraded and uncounted, every window
	 * shown as untouched.
	 */
	public static Decision uncounted(Budget budget, long nowMillis) {
		List<BoundVerdict> verdicts = new ArrayList<>();
		for (Window w : budget.windows()) {
			verdicts.add(BoundVerdict.window(w, 0, w.resetAt(nowMillis), false));
		}
		return Decision.of(budget.name(), nowMillis, verdicts, null).asDegraded().asUncounted();
	}

	/**
	 * The rate-limit filter's last resort: the outage log of a store call that failed
	 * past every decorator, after which requests are admitted {@link #uncounted}.
	 */
	public static OutageLog uncountedAdmissionsLog(String loggerName) {
		return new OutageLog(loggerName,
				"Rate-limit store '{store}' failed; admitting requests uncounted until it answers again: ",
				"Rate-limit store '{store}' answers again; requests are counted");
	}

	/**
	 * The guard filter's last resort: the outage log of a guard store call that failed
	 * past every decorator, after which lookups go on unguarded.
	 */
	public static OutageLog unguardedLookupsLog(String loggerName) {
		return new OutageLog(loggerName,
				"Authentication guard: the store failed; admitting lookups unguarded until it answers again: ",
				"Authentication guard: the store answers again; failures are counted");
	}

	public CircuitBreaker circuitBreaker() {
		return breaker.circuitBreaker();
	}

	/** The one breaker decoration of both stores. */
	public StoreCircuitBreaker breaker() {
		return breaker;
	}

}
