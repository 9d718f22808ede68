package dev.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Settlement;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;

/**
 * The one place that knows {@code take.lua}'s argument layout and the offsets of its
 * reply (the script's header describes both), and {@code settle.lua}'s arguments: a
 * decision and a peek are the same script, the peek in dry-run mode, so they share one
 * encoding and one decoding. The store only sends what this class encodes and keeps what
 * it decodes.
 */
final class TakeScriptCodec {

	/**
	 * ARGV[1..7]: now, count refused, expiry margin, lease max, lease length, lease id,
	 * dry run.
	 */
	private static final int FIXED_ARGS = 7;

	/**
	 * Per window: its algorithm's code, limit, two parameters, field name (each from its
	 * {@link WindowCodec}), what the request takes from it.
	 */
	private static final int ARGS_PER_WINDOW = 6;

	/** {@code settle.lua}'s ARGV[1..2]: now, expiry margin. */
	private static final int SETTLE_FIXED_ARGS = 2;

	/**
	 * Per settled window: its algorithm's code, field name, instance, delta, parameter
	 * ({@link WindowCodec#settleParameter}).
	 */
	private static final int SETTLE_ARGS_PER_WINDOW = 5;

	/**
	 * {@code settle.lua}'s reply: the windows settled, then per window sent the lowest
	 * notify-at threshold reached (0 for none) and its count after the settlement.
	 */
	private static final int SETTLE_REPLY_PER_WINDOW = 2;

	/** Reply[0..3]: admitted, lease refused, leases held, earliest live lease expiry. */
	private static final int FIXED_REPLY = 4;

	/**
	 * Per window: its reset (a fixed window's end; when a sliding window or a token
	 * bucket is whole again), its count after this call (fixed) or what remains (the
	 * others), whether it had room, its retry ({@code -1} for never), and the lowest
	 * notify-at threshold it reached ({@code 0} for none).
	 */
	private static final int REPLY_PER_WINDOW = 5;

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
	 * ({@link dev.limiter.core.RateLimitStore#reserve}).
	 */
	static Call encode(Budget budget, long[] amounts, ConcurrencyBound leases, String leaseId, long expiryMarginMillis,
			long nowMillis) {
		return encode(budget, 0, amounts, leases, leaseId, expiryMarginMillis, false, nowMillis);
	}

	/**
	 * {@code settle.lua}'s call: only the windows with a delta whose instance still
	 * counts at {@code nowMillis} ({@link Settlement#lands}); {@code null} when none has.
	 */
	static SettleCall encodeSettle(Settlement settlement, long expiryMarginMillis, long nowMillis) {
		List<Window> windows = settlement.windows();
		List<Object> args = new ArrayList<>(SETTLE_FIXED_ARGS + SETTLE_ARGS_PER_WINDOW * windows.size());
		int[] sent = new int[windows.size()];
		int count = 0;
		args.add(Long.toString(nowMillis));
		args.add(Long.toString(expiryMarginMillis));
		for (int i = 0; i < windows.size(); i++) {
			long delta = SettlementBounds.clampDelta(settlement.windows().get(i), settlement.deltas()[i]);
			if (delta == 0 || !settlement.lands(i, nowMillis)) {
				continue;
			}
			Window w = windows.get(i);
			WindowCodec codec = WindowCodec.of(w);
			args.add(codec.code());
			args.add(codec.field(w));
			args.add(Long.toString(settlement.instances()[i]));
			args.add(Long.toString(delta));
			args.add(codec.settleParameter(w));
			sent[count++] = i;
		}
		return (count > 0) ? new SettleCall(args.toArray(), settlement, Arrays.copyOf(sent, count)) : null;
	}

	/**
	 * The arguments of a peek: a dry run of one unit that would need a lease, so that
	 * every bound of the budget, the concurrency bound included, shows whether one more
	 * request would be refused now.
	 */
	static Call encodeDryRun(Budget budget, long nowMillis) {
		return encode(budget, 1, null, budget.concurrency().orElse(null), "", 0, true, nowMillis);
	}

	/**
	 * The arguments of a slice (ADR 0014): a decision of {@code cost} without a lease
	 * that, when admitted, counts {@link dev.limiter.core.SliceTerms#size} units in every
	 * window; {@code instance} names this store among those taking slices of the key, and
	 * one counts as taking them for twice the terms' ttl.
	 */
	static Call encodeSlice(Budget budget, long cost, SliceTerms terms, String instance, long expiryMarginMillis,
			long nowMillis) {
		Call call = encode(budget, cost, null, null, "", expiryMarginMillis, false, nowMillis);
		call.args()[6] = "s:" + terms.max() + ":" + instance + ":" + (2 * terms.ttlMillis());
		return call;
	}

	/**
	 * The units a slice's reply counted in every window: the one value after the windows'
	 * (0 when refused).
	 */
	static long sliceUnits(Budget budget, List<Object> reply) {
		return asLong(reply, FIXED_REPLY + REPLY_PER_WINDOW * budget.windows().size());
	}

	private static Call encode(Budget budget, long cost, long[] amounts, ConcurrencyBound leases, String leaseId,
			long expiryMarginMillis, boolean dryRun, long nowMillis) {
		List<Window> windows = budget.windows();
		Object[] args = new Object[FIXED_ARGS + ARGS_PER_WINDOW * windows.size()];
		args[0] = Long.toString(nowMillis);
		args[1] = budget.countRefused() ? "1" : "0";
		args[2] = Long.toString(expiryMarginMillis);
		args[3] = leases != null ? Integer.toString(leases.max()) : "0";
		args[4] = leases != null ? Long.toString(leases.leaseMillis()) : "0";
		args[5] = leases != null ? leaseId : "";
		args[6] = dryRun ? "1" : "0";
		for (int i = 0; i < windows.size(); i++) {
			Window w = windows.get(i);
			WindowCodec codec = WindowCodec.of(w);
			int at = FIXED_ARGS + ARGS_PER_WINDOW * i;
			args[at] = codec.code();
			args[at + 1] = Long.toString(w.limit());
			args[at + 2] = codec.firstParameter(w, nowMillis);
			args[at + 3] = codec.secondParameter(w);
			args[at + 4] = codec.field(w);
			args[at + 5] = Long.toString((amounts != null) ? amounts[i] : cost);
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
		long[] reached = null;
		for (int i = 0; i < windows.size(); i++) {
			int at = FIXED_REPLY + REPLY_PER_WINDOW * i;
			Window w = windows.get(i);
			verdicts.add(WindowCodec.of(w)
				.decode(w, asLong(reply, at), asLong(reply, at + 1), asLong(reply, at + 2) != 1,
						asLong(reply, at + 3)));
			long lowest = asLong(reply, at + 4);
			if (lowest > 0) {
				reached = (reached != null) ? reached : new long[windows.size() * 3];
				reached[3 * i] = lowest;
				reached[3 * i + 1] = asLong(reply, at + 1);
				reached[3 * i + 2] = asLong(reply, at);
			}
		}
		if (leases != null) {
			verdicts.add(BoundVerdict.concurrency(leases, asLong(reply, 2), asLong(reply, 3), asLong(reply, 1) == 1));
		}
		return new Reply(asLong(reply, 0) == 1, verdicts, budget, reached);
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
	 * One encoded call of {@code settle.lua}, which knows how to read its own reply.
	 *
	 * @param args the script's arguments
	 * @param settlement what it applies
	 * @param windows the indices of the windows sent, in the order sent
	 */
	record SettleCall(Object[] args, Settlement settlement, int[] windows) {

		/**
		 * The notify-at thresholds the settlement reached: per window sent, every
		 * threshold from the lowest the script reached up to the count it answered, in
		 * the instance the settlement was for.
		 */
		List<ThresholdCrossing> crossings(List<Object> reply) {
			List<ThresholdCrossing> crossings = null;
			for (int k = 0; k < windows.length; k++) {
				int at = 1 + SETTLE_REPLY_PER_WINDOW * k;
				long lowest = asLong(reply, at);
				if (lowest > 0) {
					int i = windows[k];
					crossings = reached(settlement.budget(), settlement.key(), i, lowest, asLong(reply, at + 1),
							settlement.instances()[i], crossings);
				}
			}
			return (crossings != null) ? crossings : List.of();
		}
	}

	/**
	 * @param admitted whether the request was admitted (and, with a lease, holds it);
	 * never in a dry run
	 * @param verdicts the per-bound verdicts, ready for
	 * {@link dev.limiter.core.Decision#of}
	 */
	record Reply(boolean admitted, List<BoundVerdict> verdicts, Budget budget, long[] reached) {

		/**
		 * The notify-at thresholds the call reached for {@code key}: per window, every
		 * threshold from the lowest the script reached up to the count it answered.
		 */
		List<ThresholdCrossing> crossings(String key) {
			if (reached == null) {
				return List.of();
			}
			List<ThresholdCrossing> crossings = null;
			for (int i = 0; i < budget.windows().size(); i++) {
				if (reached[3 * i] > 0) {
					crossings = TakeScriptCodec.reached(budget, key, i, reached[3 * i], reached[3 * i + 1],
							reached[3 * i + 2], crossings);
				}
			}
			return (crossings != null) ? crossings : List.of();
		}

	}

	/**
	 * Adds to {@code crossings} (made when {@code null} and one is reached) every
	 * notify-at threshold of window {@code i} from {@code lowest}, the lowest a script
	 * reached, up to {@code usage}, the count it answered.
	 */
	private static List<ThresholdCrossing> reached(Budget budget, String key, int i, long lowest, long usage,
			long periodEnd, List<ThresholdCrossing> crossings) {
		Window w = budget.windows().get(i);
		if (w.notifyAt().isEmpty()) {
			return crossings;
		}
		for (int percent : w.notifyAt().get().percents()) {
			long units = NotifyAt.units(w.limit(), percent);
			if (units >= lowest && units <= usage) {
				crossings = (crossings != null) ? crossings : new ArrayList<>(2);
				crossings
					.add(new ThresholdCrossing(budget.name(), key, w.name(), percent, usage, w.limit(), periodEnd));
			}
		}
		return crossings;
	}

}
