package dev.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Settlement;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * The one place that knows {@code take.lua}'s argument layout and the offsets of its
 * reply (the script's header describes both), and {@code settle.lua}'s arguments: a
 * decision and a peek are the same script, the peek in dry-run mode, so they share one
 * encoding and one decoding. The store only sends what this class encodes and keeps what
 * it decodes.
 */
final class TakeScriptCodec {

	/**
	 * ARGV[1..8]: now, cost, count refused, expiry margin, lease max, lease length, lease
	 * id, dry run.
	 */
	private static final int FIXED_ARGS = 8;

	/**
	 * Per window: algorithm, limit, two parameters (fixed: end of the window that
	 * contains now, 0; sliding: duration, resolution; token bucket: duration, burst),
	 * field name, what the request takes from it.
	 */
	private static final int ARGS_PER_WINDOW = 6;

	/** {@code settle.lua}'s ARGV[1..2]: now, expiry margin. */
	private static final int SETTLE_FIXED_ARGS = 2;

	/**
	 * Per settled window: algorithm, field name, instance, delta, limit and duration.
	 */
	private static final int SETTLE_ARGS_PER_WINDOW = 5;

	/** Reply[0..3]: admitted, lease refused, leases held, earliest live lease expiry. */
	private static final int FIXED_REPLY = 4;

	/**
	 * Per window: its reset (a fixed window's end; when a sliding window or a token
	 * bucket is whole again), its count after this call (fixed) or what remains (the
	 * others), whether it had room, and its retry ({@code -1} for never).
	 */
	private static final int REPLY_PER_WINDOW = 4;

	private TakeScriptCodec() {
	}

	/**
	 * The arguments of one decision.
	 * @param leases the concurrency bound when the request needs a lease, else
	 * {@code null}
	 * @param leaseId the id of the lease to take; ignored without {@code leases}
	 */
	static Call encode(Budget budget, long cost, ConcurrencyBound leases, String leaseId, long expiryMarginMillis,
			long nowMillis) {
		// A budget of requests only takes its cost from every window: no array to make.
		return encode(budget, cost, budget.hasUnits() ? budget.amounts(cost, Map.of()) : null, leases, leaseId,
				expiryMarginMillis, false, nowMillis);
	}

	/**
	 * The arguments of one decision taking {@code amounts[i]} from window {@code i}
	 * ({@link dev.limiter.core.RateLimitStore#reserve}); {@code amounts[0]} stands for
	 * the request's cost in ARGV[2], which no window reads any more.
	 */
	static Call encode(Budget budget, long[] amounts, ConcurrencyBound leases, String leaseId, long expiryMarginMillis,
			long nowMillis) {
		return encode(budget, amounts[0], amounts, leases, leaseId, expiryMarginMillis, false, nowMillis);
	}

	/**
	 * {@code settle.lua}'s arguments: only the windows with a delta whose instance still
	 * counts at {@code nowMillis} ({@link Settlement#lands}); {@code null} when none has.
	 */
	static Object[] encodeSettle(Settlement settlement, long expiryMarginMillis, long nowMillis) {
		List<Window> windows = settlement.windows();
		List<Object> args = new ArrayList<>(SETTLE_FIXED_ARGS + SETTLE_ARGS_PER_WINDOW * windows.size());
		args.add(Long.toString(nowMillis));
		args.add(Long.toString(expiryMarginMillis));
		for (int i = 0; i < windows.size(); i++) {
			long delta = SettlementBounds.clampDelta(settlement.windows().get(i), settlement.deltas()[i]);
			if (delta == 0 || !settlement.lands(i, nowMillis)) {
				continue;
			}
			Window w = windows.get(i);
			args.add(switch (w.algorithm()) {
				case FIXED_WINDOW -> "f";
				case SLIDING_WINDOW -> "s";
				case TOKEN_BUCKET -> "t";
			});
			args.add(RedisKeys.windowField(w));
			args.add(Long.toString(settlement.instances()[i]));
			args.add(Long.toString(delta));
			args.add(w.algorithm() != WindowAlgorithm.SLIDING_WINDOW ? w.limit() + ":" + w.durationMillis() : "0");
		}
		return (args.size() > SETTLE_FIXED_ARGS) ? args.toArray() : null;
	}

	/**
	 * The arguments of a peek: a dry run of one unit that would need a lease, so that
	 * every bound of the budget, the concurrency bound included, shows whether one more
	 * request would be refused now.
	 */
	static Call encodeDryRun(Budget budget, long nowMillis) {
		return encode(budget, 1, null, budget.concurrency().orElse(null), "", 0, true, nowMillis);
	}

	private static Call encode(Budget budget, long cost, long[] amounts, ConcurrencyBound leases, String leaseId,
			long expiryMarginMillis, boolean dryRun, long nowMillis) {
		List<Window> windows = budget.windows();
		Object[] args = new Object[FIXED_ARGS + ARGS_PER_WINDOW * windows.size()];
		args[0] = Long.toString(nowMillis);
		args[1] = Long.toString(cost);
		args[2] = budget.countRefused() ? "1" : "0";
		args[3] = Long.toString(expiryMarginMillis);
		args[4] = leases != null ? Integer.toString(leases.max()) : "0";
		args[5] = leases != null ? Long.toString(leases.leaseMillis()) : "0";
		args[6] = leases != null ? leaseId : "";
		args[7] = dryRun ? "1" : "0";
		for (int i = 0; i < windows.size(); i++) {
			Window w = windows.get(i);
			int at = FIXED_ARGS + ARGS_PER_WINDOW * i;
			args[at + 1] = Long.toString(w.limit());
			switch (w.algorithm()) {
				case FIXED_WINDOW -> {
					args[at] = "f";
					args[at + 2] = Long.toString(w.resetAt(nowMillis));
					// a window in units carries its excess by its duration
					// (FixedWindowDebt)
					args[at + 3] = w.countsRequests() ? "0" : Long.toString(w.durationMillis());
				}
				case SLIDING_WINDOW -> {
					args[at] = "s";
					args[at + 2] = Long.toString(w.durationMillis());
					args[at + 3] = Long.toString(w.resolutionMillis());
				}
				case TOKEN_BUCKET -> {
					args[at] = "t";
					args[at + 2] = Long.toString(w.durationMillis());
					args[at + 3] = Long.toString(w.burst());
				}
			}
			args[at + 4] = RedisKeys.windowField(w);
			args[at + 5] = (amounts != null) ? Long.toString(amounts[i]) : args[1];
		}
		return new Call(args, budget, leases);
	}

	/**
	 * The script's reply as verdicts: every window in declaration order, then the
	 * concurrency bound when {@code leases} was encoded.
	 */
	private static Reply decode(Budget budget, ConcurrencyBound leases, List<Object> reply) {
		List<Window> windows = budget.windows();
		List<BoundVerdict> verdicts = new ArrayList<>(windows.size() + 1);
		for (int i = 0; i < windows.size(); i++) {
			int at = FIXED_REPLY + REPLY_PER_WINDOW * i;
			Window w = windows.get(i);
			boolean refused = asLong(reply, at + 2) != 1;
			if (w.fixed()) {
				// a fixed window answers its count, and a retry later than its reset
				// while it
				// carries an excess (FixedWindowDebt)
				verdicts.add(BoundVerdict.window(w, w.limit() - asLong(reply, at + 1), asLong(reply, at), refused,
						asLong(reply, at + 3)));
			}
			else {
				long retry = asLong(reply, at + 3);
				verdicts.add(BoundVerdict.window(w, asLong(reply, at + 1), asLong(reply, at), refused,
						(retry < 0) ? Long.MAX_VALUE : retry));
			}
		}
		if (leases != null) {
			verdicts.add(BoundVerdict.concurrency(leases, asLong(reply, 2), asLong(reply, 3), asLong(reply, 1) == 1));
		}
		return new Reply(asLong(reply, 0) == 1, verdicts);
	}

	private static long asLong(List<Object> raw, int index) {
		Object value = raw.get(index);
		if (value instanceof Number number) {
			return number.longValue();
		}
		if (value instanceof byte[] bytes) {
			return Long.parseLong(new String(bytes, StandardCharsets.UTF_8));
		}
		return Long.parseLong(String.valueOf(value));
	}

	/** One encoded call of the script, which knows how to read its own reply. */
	record Call(Object[] args, Budget budget, ConcurrencyBound leases) {

		Reply decode(List<Object> reply) {
			return TakeScriptCodec.decode(budget, leases, reply);
		}
	}

	/**
	 * @param admitted whether the request was admitted (and, with a lease, holds it);
	 * never in a dry run
	 * @param verdicts the per-bound verdicts, ready for
	 * {@link dev.limiter.core.Decision#of}
	 */
	record Reply(boolean admitted, List<BoundVerdict> verdicts) {
	}

}
