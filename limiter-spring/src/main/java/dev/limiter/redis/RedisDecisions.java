package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.ThresholdCrossing;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The {@link RedisRateLimitStore}'s calls that a request waits for, each one script call
 * encoded and decoded the same way whether the answer is waited for on the calling thread
 * ({@link RedisScriptCalls#execute}) or arrives later without blocking it
 * ({@link RedisScriptCalls#executeWithoutBlocking}, Lettuce only): a decision
 * ({@code take.lua}), a peek (the same script in dry-run mode) and a lease's renewal
 * ({@code renew.lua}); a slice is {@link RedisSlices}'.
 */
@SuppressWarnings("rawtypes")
final class RedisDecisions {

	private final RedisScriptCalls calls;

	private final RedisKeys keys;

	private final RedisScript<List> take;

	private final RedisScript<List> renew;

	private final long expiryMarginMillis;

	private final Supplier<String> leaseIds;

	RedisDecisions(RedisScriptCalls calls, RedisKeys keys, RedisScript<List> take, RedisScript<List> renew,
			long expiryMarginMillis, Supplier<String> leaseIds) {
		this.calls = calls;
		this.keys = keys;
		this.take = take;
		this.renew = renew;
		this.expiryMarginMillis = expiryMarginMillis;
		this.leaseIds = leaseIds;
	}

	Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		return decide(takeCall(budget, key, cost, expensive, nowMillis));
	}

	Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		return decide(reserveCall(budget, key, amounts, expensive, nowMillis));
	}

	/**
	 * {@link #take} without blocking; an argument out of range fails the stage before
	 * anything is sent.
	 * @throws UnsupportedOperationException on a client that blocks
	 */
	CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		requireNonBlocking();
		try {
			return decideAsync(takeCall(budget, key, cost, expensive, nowMillis));
		}
		catch (IllegalArgumentException callersMistake) {
			return CompletableFuture.failedFuture(callersMistake);
		}
	}

	/** {@link #reserve} without blocking, as {@link #takeAsync}. */
	CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
			long nowMillis) {
		requireNonBlocking();
		try {
			return decideAsync(reserveCall(budget, key, amounts, expensive, nowMillis));
		}
		catch (IllegalArgumentException callersMistake) {
			return CompletableFuture.failedFuture(callersMistake);
		}
	}

	/** {@code take.lua} in dry-run mode: reads, counts nothing. */
	KeyState peek(Budget budget, String key, long nowMillis) {
		TakeScriptCodec.Call dryRun = TakeScriptCodec.encodeDryRun(budget, nowMillis);
		return new KeyState(budget.name(), key,
				dryRun.decode(calls.execute(take, keys.all(budget, key), dryRun.args())).verdicts());
	}

	boolean renew(Lease lease, long expiresAtMillis, long nowMillis) {
		return held(calls.execute(renew, leases(lease), renewArgs(lease, expiresAtMillis, nowMillis)));
	}

	/** {@link #renew} without blocking, as {@link #takeAsync}. */
	CompletionStage<Boolean> renewAsync(Lease lease, long expiresAtMillis, long nowMillis) {
		requireNonBlocking();
		return calls.executeWithoutBlocking(renew, leases(lease), renewArgs(lease, expiresAtMillis, nowMillis))
			.thenApply(RedisDecisions::held);
	}

	private void requireNonBlocking() {
		requireNonBlocking(calls);
	}

	/**
	 * @throws UnsupportedOperationException on a client that blocks
	 */
	static void requireNonBlocking(RedisScriptCalls calls) {
		if (!calls.answersWithoutBlocking()) {
			throw new UnsupportedOperationException(RedisScriptCalls.BLOCKING_CLIENT.formatted(calls.client()));
		}
	}

	private Decision decide(ScriptTake call) {
		return call.decision(calls.execute(take, keys.all(call.budget(), call.key()), call.call().args()));
	}

	private CompletionStage<Decision> decideAsync(ScriptTake call) {
		return calls.executeWithoutBlocking(take, keys.all(call.budget(), call.key()), call.call().args())
			.thenApply(call::decision);
	}

	private ScriptTake takeCall(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
		budget.checkCost(cost);
		ConcurrencyBound bound = expensive ? budget.concurrency().orElse(null) : null;
		String leaseId = bound != null ? leaseIds.get() : "";
		return new ScriptTake(budget, key, bound, leaseId, nowMillis,
				TakeScriptCodec.encode(budget, cost, bound, leaseId, expiryMarginMillis, nowMillis));
	}

	private ScriptTake reserveCall(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
		budget.checkAmounts(amounts);
		ConcurrencyBound bound = expensive ? budget.concurrency().orElse(null) : null;
		String leaseId = bound != null ? leaseIds.get() : "";
		return new ScriptTake(budget, key, bound, leaseId, nowMillis,
				TakeScriptCodec.encode(budget, amounts, bound, leaseId, expiryMarginMillis, nowMillis));
	}

	private List<String> leases(Lease lease) {
		return List.of(keys.leases(lease.budget(), lease.key()));
	}

	private Object[] renewArgs(Lease lease, long expiresAtMillis, long nowMillis) {
		return new Object[] { Long.toString(nowMillis), Long.toString(expiresAtMillis), lease.id(),
				Long.toString(expiryMarginMillis) };
	}

	private static boolean held(List<Object> reply) {
		return !reply.isEmpty() && reply.get(0) instanceof Number held && held.longValue() == 1;
	}

	/**
	 * One decision's script call, and what the decision needs once its reply is in; a
	 * reply that cannot be read throws a {@link RateLimitStoreException}.
	 */
	private record ScriptTake(Budget budget, String key, ConcurrencyBound bound, String leaseId, long nowMillis,
			TakeScriptCodec.Call call) {

		Decision decision(List<Object> raw) {
			TakeScriptCodec.Reply reply = call.decode(raw);
			Lease lease = reply.admitted() && bound != null
					? new Lease(budget.name(), key, leaseId, nowMillis + bound.leaseMillis()) : null;
			Decision decision = Decision.of(budget.name(), nowMillis, reply.verdicts(), lease);
			List<ThresholdCrossing> crossings = reply.crossings(key);
			return crossings.isEmpty() ? decision : decision.withCrossings(crossings);
		}

	}

}
