package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.ThresholdCrossing;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The {@link RedisRateLimitStore}'s slices (ADR 0014): {@code take.lua} in slice mode,
 * one script call that decides the request as a {@code take} does and, when it is
 * admitted, counts the slice's units in every window, this store counted among the
 * instances taking slices of the key; waited for ({@link RedisScriptCalls#execute}) or
 * answered later without blocking ({@link RedisScriptCalls#executeWithoutBlocking},
 * Lettuce only).
 */
@SuppressWarnings("rawtypes")
final class RedisSlices {

	private final RedisScriptCalls calls;

	private final RedisKeys keys;

	private final RedisScript<List> take;

	private final long expiryMarginMillis;

	/** This store among the instances taking slices of a key. */
	private final String instance;

	RedisSlices(RedisScriptCalls calls, RedisKeys keys, RedisScript<List> take, long expiryMarginMillis,
			String instance) {
		this.calls = calls;
		this.keys = keys;
		this.take = take;
		this.expiryMarginMillis = expiryMarginMillis;
		this.instance = instance;
	}

	Slice takeSlice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		ScriptSlice call = sliceCall(budget, key, cost, terms, nowMillis);
		return call.slice(calls.execute(take, keys.slice(budget, key), call.call().args()));
	}

	/**
	 * {@link #takeSlice} without blocking: the same script call through the path of a
	 * decision without blocking, with its deadline per call; an argument out of range
	 * fails the stage before anything is sent.
	 * @throws UnsupportedOperationException on a client that blocks
	 */
	CompletionStage<Slice> takeSliceAsync(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		RedisDecisions.requireNonBlocking(calls);
		try {
			ScriptSlice call = sliceCall(budget, key, cost, terms, nowMillis);
			return calls.executeWithoutBlocking(take, keys.slice(budget, key), call.call().args())
				.thenApply(call::slice);
		}
		catch (IllegalArgumentException callersMistake) {
			return CompletableFuture.failedFuture(callersMistake);
		}
	}

	private ScriptSlice sliceCall(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		budget.checkCost(cost);
		return new ScriptSlice(budget, key, nowMillis,
				TakeScriptCodec.encodeSlice(budget, cost, terms, instance, expiryMarginMillis, nowMillis));
	}

	/**
	 * One slice's script call, and what its slice needs once the reply is in; a reply
	 * that cannot be read throws a {@link RateLimitStoreException}. The notify-at
	 * thresholds the slice's units reached are the decision's, as a {@code take}'s are:
	 * the script decided them where it counted the slice.
	 */
	private record ScriptSlice(Budget budget, String key, long nowMillis, TakeScriptCodec.Call call) {

		Slice slice(List<Object> raw) {
			TakeScriptCodec.Reply reply = call.decode(raw);
			Decision decision = Decision.of(budget.name(), nowMillis, reply.verdicts(), null);
			List<ThresholdCrossing> crossings = reply.crossings(key);
			return new Slice(crossings.isEmpty() ? decision : decision.withCrossings(crossings),
					reply.admitted() ? TakeScriptCodec.sliceUnits(budget, raw) : 0);
		}

	}

}
