package dev.limiter.redis;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.GuardState;
import dev.limiter.core.guard.PendingReservation;

/**
 * The authentication guard in Redis: every step is one EVALSHA of {@code guard.lua} on
 * the address's three keys, which share a Cluster hash tag ({@link RedisKeys#guard}). A
 * reservation is sent before the lookup and its answer read after it; a success and a
 * release are sent without waiting. Calls share the {@link RedisRateLimitStore}'s
 * connection and its one timeout per request.
 */
final class RedisAuthGuardStore implements AuthGuardStore {

	private static final String PENDING_BUDGET = "auth-guard-pending";

	private final RedisRateLimitStore redis;

	private final RedisKeys keys;

	private final AuthGuardPolicy policy;

	private final long marginMillis;

	RedisAuthGuardStore(RedisRateLimitStore redis, RedisKeys keys, AuthGuardPolicy policy, long marginMillis) {
		this.redis = Objects.requireNonNull(redis, "redis");
		this.keys = Objects.requireNonNull(keys, "keys");
		this.policy = Objects.requireNonNull(policy, "policy");
		this.marginMillis = marginMillis;
	}

	@Override
	public Reservation reserve(String addressKey, long nowMillis) {
		return reserveAsync(addressKey, nowMillis).await();
	}

	/** One EVALSHA, sent now; the lookup runs while it travels. */
	@Override
	public PendingReservation reserveAsync(String addressKey, long nowMillis) {
		String id = redis.nextLeaseId();
		Supplier<List<Object>> reply = redis.send(RedisRateLimitStore.GUARD, keys.guard(addressKey),
				args("reserve", nowMillis, id, ""));
		return () -> reservation(reply.get(), addressKey, id, nowMillis);
	}

	private Reservation reservation(List<Object> reply, String addressKey, String id, long nowMillis) {
		long outcome = number(reply, 0);
		if (outcome == 1) {
			return new Reservation(GuardAdmission.Outcome.ADMITTED, 0,
					new Lease(PENDING_BUDGET, addressKey, id, nowMillis + policy.lookupLease().toMillis()),
					number(reply, 2), false);
		}
		if (outcome == 2) {
			return new Reservation(GuardAdmission.Outcome.BLOCKED, number(reply, 1), null, 0, false);
		}
		return new Reservation(GuardAdmission.Outcome.SATURATED, 0, null, 0, false);
	}

	@Override
	public Failure fail(String addressKey, Lease reservation, long nowMillis) {
		List<Object> reply = redis.execute(RedisRateLimitStore.GUARD, keys.guard(addressKey),
				args("fail", nowMillis, idOf(reservation), redis.nextLeaseId()));
		return new Failure(number(reply, 0) == 1, number(reply, 1));
	}

	/** One EVALSHA, not waited for: the 401 does not depend on it. */
	@Override
	public CompletionStage<Failure> failAsync(String addressKey, Lease reservation, long nowMillis) {
		return redis
			.sendWithoutWaiting(RedisRateLimitStore.GUARD, keys.guard(addressKey),
					args("fail", nowMillis, idOf(reservation), redis.nextLeaseId()))
			.thenApply(reply -> new Failure(number(reply, 0) == 1, number(reply, 1)));
	}

	@Override
	public void succeed(String addressKey, Lease reservation, boolean clearFailures, long nowMillis) {
		if (!clearFailures && reservation == null) {
			return;
		}
		redis.executeWithoutWaiting(RedisRateLimitStore.GUARD, keys.guard(addressKey),
				args("succeed", nowMillis, idOf(reservation), clearFailures ? "1" : "0"));
	}

	@Override
	public void release(Lease reservation, long nowMillis) {
		if (reservation == null) {
			return;
		}
		redis.executeWithoutWaiting(RedisRateLimitStore.GUARD, keys.guard(reservation.key()),
				args("release", nowMillis, reservation.id(), ""));
	}

	@Override
	public GuardState state(String addressKey, long nowMillis) {
		List<Object> reply = redis.execute(RedisRateLimitStore.GUARD, keys.guard(addressKey),
				args("state", nowMillis, "", ""));
		return new GuardState(number(reply, 0), number(reply, 1), number(reply, 2));
	}

	private Object[] args(String operation, long nowMillis, String reservationId, String last) {
		return new Object[] { operation, nowMillis, policy.threshold(), policy.window().toMillis(),
				policy.block().toMillis(), policy.maxPending(), policy.lookupLease().toMillis(), reservationId, last,
				marginMillis };
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
