package dev.limiter.redis;

import java.util.List;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore.Failure;
import dev.limiter.core.guard.AuthGuardStore.Reservation;
import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.GuardState;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The one place that knows {@code guard.lua}'s argument layout and the shape of its
 * replies (the script's header describes both), as {@link TakeScriptCodec} is for
 * {@code take.lua}: {@link RedisAuthGuardStore} sends what this encodes and keeps what it
 * decodes.
 */
final class GuardScriptCodec {

	static final RedisScript<List> SCRIPT = RedisScriptCalls.script("guard.lua");

	/** The budget name a reservation's lease carries. */
	private static final String PENDING_BUDGET = "auth-guard-pending";

	private final AuthGuardPolicy policy;

	private final long marginMillis;

	GuardScriptCodec(AuthGuardPolicy policy, long marginMillis) {
		this.policy = policy;
		this.marginMillis = marginMillis;
	}

	Object[] reserve(long nowMillis, String reservationId, String credentialKey) {
		return args("reserve", nowMillis, reservationId, "", credentialKey);
	}

	Object[] fail(long nowMillis, Lease reservation, String failureId) {
		return args("fail", nowMillis, idOf(reservation), failureId, null);
	}

	Object[] succeed(long nowMillis, Lease reservation, String credentialKey) {
		return args("succeed", nowMillis, idOf(reservation), "", credentialKey);
	}

	Object[] release(long nowMillis, Lease reservation) {
		return args("release", nowMillis, reservation.id(), "", null);
	}

	Object[] unblock(long nowMillis) {
		return args("unblock", nowMillis, "", "", null);
	}

	Object[] state(long nowMillis) {
		return args("state", nowMillis, "", "", null);
	}

	/**
	 * {outcome (1 admitted, 2 blocked, 3 saturated), block end, completed failures,
	 * proven (1|0)}: admitted and proven is a proven credential, without a reservation.
	 */
	Reservation reservation(List<Object> reply, String addressKey, String reservationId, long nowMillis) {
		long outcome = number(reply, 0);
		boolean proven = number(reply, 3) == 1;
		if (outcome == 1 && proven) {
			return Reservation.proven(number(reply, 1), false);
		}
		if (outcome == 1) {
			return new Reservation(GuardAdmission.Outcome.ADMITTED, 0,
					new Lease(PENDING_BUDGET, addressKey, reservationId, nowMillis + policy.lookupLease().toMillis()),
					number(reply, 2), false);
		}
		if (outcome == 2) {
			return new Reservation(GuardAdmission.Outcome.BLOCKED, number(reply, 1), null, 0, false, proven);
		}
		return new Reservation(GuardAdmission.Outcome.SATURATED, 0, null, 0, false);
	}

	/** {reached the threshold (1|0), block end, proven credentials (1|0)}. */
	Failure failure(List<Object> reply) {
		return new Failure(number(reply, 0) == 1, number(reply, 1), number(reply, 2) == 1);
	}

	/** {a block was running (1|0)}. */
	boolean unblocked(List<Object> reply) {
		return number(reply, 0) == 1;
	}

	/** {completed failures, lookups in flight, block end, proven credentials}. */
	GuardState state(List<Object> reply) {
		return new GuardState(number(reply, 0), number(reply, 1), number(reply, 2), number(reply, 3));
	}

	/**
	 * ARGV[1..12]: operation, now, threshold, window, block, max pending, lookup lease,
	 * reservation id, failure id, expiry margin, credential hash, proven credentials per
	 * address.
	 */
	private Object[] args(String operation, long nowMillis, String reservationId, String failureId,
			String credentialKey) {
		return new Object[] { operation, nowMillis, policy.threshold(), policy.window().toMillis(),
				policy.block().toMillis(), policy.maxPending(), policy.lookupLease().toMillis(), reservationId,
				failureId, marginMillis, credentialKey == null ? "" : credentialKey,
				AuthGuardPolicy.PROVEN_CREDENTIALS_PER_ADDRESS };
	}

	private static String idOf(Lease reservation) {
		return reservation == null ? "" : reservation.id();
	}

	private static long number(List<Object> reply, int index) {
		if (reply.size() <= index || !(reply.get(index) instanceof Number value)) {
			throw new RateLimitStoreException("Redis store: unexpected answer from guard.lua: " + reply);
		}
		return value.longValue();
	}

}
