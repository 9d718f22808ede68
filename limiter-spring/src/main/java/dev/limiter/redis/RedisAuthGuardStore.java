package dev.limiter.redis;

import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.limiter.core.Lease;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardState;
import dev.limiter.core.guard.PendingReservation;

/**
 * The authentication guard in Redis: every step is one EVALSHA of {@code guard.lua} on
 * the address's four keys, which share a Cluster hash tag ({@link RedisKeys#guard}),
 * encoded and decoded by {@link GuardScriptCodec}. A reservation is sent before the
 * lookup and its answer read after it; a success and a release are sent without waiting.
 * Calls share the {@link RedisRateLimitStore}'s {@link RedisScriptCalls} (its connection
 * and its one timeout per request).
 */
final class RedisAuthGuardStore implements AuthGuardStore {

	private final RedisScriptCalls calls;

	private final RedisKeys keys;

	private final GuardScriptCodec codec;

	private final Supplier<String> ids;

	/**
	 * @param ids unique ids for reservations and failures, shared with the store's leases
	 */
	RedisAuthGuardStore(RedisScriptCalls calls, RedisKeys keys, GuardScriptCodec codec, Supplier<String> ids) {
		this.calls = Objects.requireNonNull(calls, "calls");
		this.keys = Objects.requireNonNull(keys, "keys");
		this.codec = Objects.requireNonNull(codec, "codec");
		this.ids = Objects.requireNonNull(ids, "ids");
	}

	@Override
	public Reservation reserve(String addressKey, String credentialKey, long nowMillis) {
		return reserveAsync(addressKey, credentialKey, nowMillis).await();
	}

	/**
	 * One EVALSHA, sent now; the lookup runs while it travels. Its answer is read waiting
	 * ({@link PendingReservation#await()}, within the request's one timeout) or not
	 * ({@link PendingReservation#toStage()}, within one timeout of the send, completed on
	 * the client's I/O thread).
	 */
	@Override
	public PendingReservation reserveAsync(String addressKey, String credentialKey, long nowMillis) {
		String id = ids.get();
		RedisScriptCalls.SentScript reply = calls.send(GuardScriptCodec.SCRIPT, keys.guard(addressKey),
				codec.reserve(nowMillis, id, credentialKey));
		return new PendingReservation() {

			@Override
			public Reservation await() {
				return codec.reservation(reply.get(), addressKey, id, nowMillis);
			}

			@Override
			public CompletionStage<Reservation> toStage() {
				return reply.toStage().thenApply(answer -> codec.reservation(answer, addressKey, id, nowMillis));
			}

		};
	}

	@Override
	public Failure fail(String addressKey, Lease reservation, long nowMillis) {
		return codec.failure(calls.execute(GuardScriptCodec.SCRIPT, keys.guard(addressKey),
				codec.fail(nowMillis, reservation, ids.get())));
	}

	/** One EVALSHA, not waited for: the 401 does not depend on it. */
	@Override
	public CompletionStage<Failure> failAsync(String addressKey, Lease reservation, long nowMillis) {
		return calls
			.sendWithoutWaiting(GuardScriptCodec.SCRIPT, keys.guard(addressKey),
					codec.fail(nowMillis, reservation, ids.get()))
			.thenApply(codec::failure);
	}

	@Override
	public void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis) {
		if (credentialKey == null && reservation == null) {
			return;
		}
		calls.executeWithoutWaiting(GuardScriptCodec.SCRIPT, keys.guard(addressKey),
				codec.succeed(nowMillis, reservation, credentialKey), "settle the authentication guard's reservation");
	}

	@Override
	public boolean unblock(String addressKey, long nowMillis) {
		return codec
			.unblocked(calls.execute(GuardScriptCodec.SCRIPT, keys.guard(addressKey), codec.unblock(nowMillis)));
	}

	@Override
	public void release(Lease reservation, long nowMillis) {
		if (reservation == null) {
			return;
		}
		calls.executeWithoutWaiting(GuardScriptCodec.SCRIPT, keys.guard(reservation.key()),
				codec.release(nowMillis, reservation), "release the authentication guard's reservation");
	}

	@Override
	public GuardState state(String addressKey, long nowMillis) {
		return codec.state(calls.execute(GuardScriptCodec.SCRIPT, keys.guard(addressKey), codec.state(nowMillis)));
	}

}
