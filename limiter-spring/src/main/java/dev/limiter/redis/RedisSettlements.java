package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.Settlement;
import dev.limiter.core.ThresholdCrossing;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * What the {@link RedisRateLimitStore} sends without waiting, handing back what a request
 * took: a settlement ({@code settle.lua}: what a reservation used, ADR 0012, or the
 * unspent units of a slice, ADR 0014) and a lease's release.
 */
@SuppressWarnings("rawtypes")
final class RedisSettlements {

	private final RedisScriptCalls calls;

	private final RedisKeys keys;

	private final RedisScript<List> settle;

	private final long expiryMarginMillis;

	RedisSettlements(RedisScriptCalls calls, RedisKeys keys, RedisScript<List> settle, long expiryMarginMillis) {
		this.calls = calls;
		this.keys = keys;
		this.settle = settle;
		this.expiryMarginMillis = expiryMarginMillis;
	}

	/**
	 * Sent without waiting, like a release ({@code settle.lua}, which also decides the
	 * notify-at thresholds the settlement reached); its reply is read when it arrives,
	 * never waited for. The stage fails with a {@link RateLimitStoreException} when no
	 * answer came within the store's timeout, and is never retried (a script that timed
	 * out may have run: ADR 0012).
	 */
	CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
		TakeScriptCodec.SettleCall call = TakeScriptCodec.encodeSettle(settlement, expiryMarginMillis, nowMillis);
		if (call == null) {
			return CompletableFuture.completedFuture(List.of());
		}
		return calls
			.sendWithoutWaiting(settle, List.of(keys.windows(settlement.budget(), settlement.key())), call.args())
			.thenApply(call::crossings);
	}

	/**
	 * Fire-and-forget: a lost release only holds a slot until the lease expires by
	 * itself.
	 */
	void release(Lease lease) {
		calls.removeWithoutWaiting(keys.leases(lease.budget(), lease.key()), lease.id());
	}

}
