package dev.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.InvalidValueException;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import dev.limiter.core.Settlement;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.AuthGuardStoreProvider;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Counters in Redis, exact across every instance that shares it (docs/redis.md, ADR
 * 0002). One decision is one round trip: {@code take.lua}, sent as EVALSHA (EVAL when the
 * server answers NOSCRIPT), checks every window and the concurrency bound and counts
 * atomically; a peek is the same script in dry-run mode. {@link TakeScriptCodec} turns
 * the script's numbers into {@link BoundVerdict}s and {@link Decision#of} decides
 * admission and retry-after, as for every store.
 *
 * <p>
 * The local memory of keys over a limit, which spares a refusal loop its round trips, is
 * not here: wrap this store in a {@link dev.limiter.core.OverLimitRememberingStore}, as
 * the auto-configuration does.
 *
 * <p>
 * Works with Redis standalone, Sentinel and Cluster through any spring-data-redis
 * {@link RedisConnectionFactory}, Lettuce or Jedis ({@link RedisScriptCalls}); releases
 * are sent without waiting. The calls a request waits for are {@link RedisDecisions}', a
 * slice's {@link RedisSlices}' (ADR 0014).
 */
public final class RedisRateLimitStore implements RateLimitStore, AuthGuardStoreProvider {

	/**
	 * How long a key outlives its window by default: covers clock skew between instances.
	 */
	public static final Duration DEFAULT_EXPIRY_MARGIN = Duration.ofSeconds(2);

	private static final RedisScript<List> TAKE = RedisScriptCalls.script("take.lua");

	private static final RedisScript<List> SETTLE = RedisScriptCalls.script("settle.lua");

	private static final RedisScript<List> RENEW = RedisScriptCalls.script("renew.lua");

	private final RedisScriptCalls calls;

	private final RedisKeys keys;

	private final long expiryMarginMillis;

	private final RedisDecisions decisions;

	private final RedisSlices slices;

	private final RedisSettlements settlements;

	private final LeaseIds leaseIds = new LeaseIds();

	private RedisRateLimitStore(Builder builder) {
		this.keys = new RedisKeys(builder.keyPrefix);
		this.expiryMarginMillis = builder.expiryMargin.toMillis();
		this.calls = new RedisScriptCalls(builder.connectionFactory, builder.timeout, builder.maxBlockingCalls,
				List.of(TAKE, SETTLE, GuardScriptCodec.SCRIPT, RENEW));
		this.decisions = new RedisDecisions(calls, keys, TAKE, RENEW, expiryMarginMillis, leaseIds);
		this.slices = new RedisSlices(calls, keys, TAKE, expiryMarginMillis, leaseIds.prefix());
		this.settlements = new RedisSettlements(calls, keys, SETTLE, expiryMarginMillis);
	}

	public static Builder builder(RedisConnectionFactory connectionFactory) {
		return new Builder(connectionFactory);
	}

	@Override
	public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		if (budget.hasUnits()) {
			return reserve(budget, key, budget.amounts(cost, Map.of()), expensive, nowMillis);
		}
		return decisions.take(budget, key, cost, expensive, nowMillis);
	}

	/** The same one script call, each window taking its own amount. */
	@Override
	public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		return decisions.reserve(budget, key, amounts, expensive, nowMillis);
	}

	/**
	 * {@link #take} without blocking: the same script call, answered on Lettuce's event
	 * loop or failed when the timeout from the send runs out (on a timer).
	 * @throws UnsupportedOperationException unless {@link #answersWithoutBlocking}
	 */
	@Override
	public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
			long nowMillis) {
		if (budget.hasUnits()) {
			return reserveAsync(budget, key, budget.amounts(cost, Map.of()), expensive, nowMillis);
		}
		return decisions.takeAsync(budget, key, cost, expensive, nowMillis);
	}

	/** {@link #reserve} without blocking, as {@link #takeAsync}. */
	@Override
	public CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
			long nowMillis) {
		return decisions.reserveAsync(budget, key, amounts, expensive, nowMillis);
	}

	/**
	 * Whether the asynchronous calls never block the calling thread: on Lettuce's shared
	 * connection only (the default with Lettuce); elsewhere they throw.
	 */
	public boolean answersWithoutBlocking() {
		return calls.answersWithoutBlocking();
	}

	/** The same one script call in slice mode, ADR 0014 ({@link RedisSlices}). */
	@Override
	public Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		return slices.takeSlice(budget, key, cost, terms, nowMillis);
	}

	/** {@link #takeSlice} without blocking, as {@link #takeAsync}. */
	@Override
	public CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms,
			long nowMillis) {
		return slices.takeSliceAsync(budget, key, cost, terms, nowMillis);
	}

	/** Sent without waiting ({@link RedisSettlements#settle}). */
	@Override
	public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
		return settlements.settle(settlement, nowMillis);
	}

	/** Fire-and-forget ({@link RedisSettlements#release}). */
	@Override
	public void release(Lease lease, long nowMillis) {
		settlements.release(lease);
	}

	/**
	 * One round trip ({@code renew.lua} on the lease's sorted set); waits for the answer
	 * within the store's timeout, on the caller's thread (a renewal thread, never a
	 * request's).
	 */
	@Override
	public boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		return decisions.renew(lease, expiresAtMillis, nowMillis);
	}

	/** {@link #renew} without blocking, as {@link #takeAsync}. */
	@Override
	public CompletionStage<Boolean> renewAsync(Lease lease, long expiresAtMillis, long nowMillis) {
		return decisions.renewAsync(lease, expiresAtMillis, nowMillis);
	}

	@Override
	public KeyState peek(Budget budget, String key, long nowMillis) {
		return decisions.peek(budget, key, nowMillis);
	}

	@Override
	public void reset(Budget budget, String key) {
		calls.delete(keys.all(budget, key));
	}

	@Override
	public String name() {
		return "redis";
	}

	/**
	 * The guard's store on this store's connection, keys and timeout: one round trip per
	 * guard step.
	 */
	@Override
	public AuthGuardStore authGuardStore(AuthGuardPolicy policy) {
		return new RedisAuthGuardStore(calls, keys, new GuardScriptCodec(policy, expiryMarginMillis), leaseIds);
	}

	/** The prefix every key of this store starts with. */
	public String keyPrefix() {
		return keys.prefix();
	}

	/**
	 * How long one request may wait for this store in total, over all its calls (see
	 * {@link RequestStoreTime}); outside a request, how long one call may take before it
	 * fails with a {@link RateLimitStoreException}.
	 */
	public Duration timeout() {
		return calls.timeout();
	}

	/** Options of a {@link RedisRateLimitStore}. */
	public static final class Builder {

		private final RedisConnectionFactory connectionFactory;

		private String keyPrefix = "limiter";

		private Duration expiryMargin = DEFAULT_EXPIRY_MARGIN;

		private Duration timeout = Duration.ofSeconds(1);

		private int maxBlockingCalls = 64;

		private Builder(RedisConnectionFactory connectionFactory) {
			this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
		}

		/** The first segment of every key, {@code limiter} by default. */
		public Builder keyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
			return this;
		}

		/**
		 * How long keys outlive their window's reset, to absorb clock skew between
		 * instances.
		 */
		public Builder expiryMargin(Duration expiryMargin) {
			if (expiryMargin.isNegative()) {
				throw new InvalidValueException(Field.EXPIRY_MARGIN, "expiry margin ",
						"must not be negative, was " + expiryMargin);
			}
			this.expiryMargin = expiryMargin;
			return this;
		}

		/**
		 * How long one call may take, enforced by the store whatever the driver's own
		 * timeouts are.
		 */
		public Builder timeout(Duration timeout) {
			if (timeout == null || timeout.isNegative() || timeout.isZero()) {
				throw new InvalidValueException(Field.TIMEOUT, "timeout ", "must be positive, was " + timeout);
			}
			this.timeout = timeout;
			return this;
		}

		/**
		 * Calls without an asynchronous API that may wait at once; more fail at once as
		 * saturated.
		 */
		public Builder maxBlockingCalls(int maxBlockingCalls) {
			if (maxBlockingCalls < 1) {
				throw new InvalidValueException(Field.MAX_BLOCKING_CALLS, "max blocking calls ",
						"must be at least 1, was " + maxBlockingCalls);
			}
			this.maxBlockingCalls = maxBlockingCalls;
			return this;
		}

		public RedisRateLimitStore build() {
			return new RedisRateLimitStore(this);
		}

	}

	/**
	 * The values the {@link Builder} checks, as {@link InvalidValueException#field()}
	 * names them.
	 */
	public enum Field {

		/** {@link Builder#keyPrefix}. */
		KEY_PREFIX,

		/** {@link Builder#timeout}. */
		TIMEOUT,

		/** {@link Builder#expiryMargin}. */
		EXPIRY_MARGIN,

		/** {@link Builder#maxBlockingCalls}. */
		MAX_BLOCKING_CALLS

	}

}
