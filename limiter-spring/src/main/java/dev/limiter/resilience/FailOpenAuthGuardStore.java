package dev.limiter.resilience;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.InProcessRateLimitStore;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardState;
import dev.limiter.core.guard.PendingReservation;
import dev.limiter.core.guard.StoreBackedAuthGuardStore;

/**
 * The guard's counterpart of {@link FailOpenRateLimitStore}: asks the authoritative guard
 * store while it answers, and an in-process one (same rules, bounded keys) when it
 * throws; answers from the fallback are marked degraded. A reservation is always settled
 * where it was taken: the fallback's leases name it as their issuer. Part of the
 * {@link FailurePolicy}.
 */
public final class FailOpenAuthGuardStore implements AuthGuardStore {

	private final AuthGuardStore authoritative;

	private final InProcessRateLimitStore memory;

	private final StoreBackedAuthGuardStore fallback;

	public FailOpenAuthGuardStore(AuthGuardStore authoritative, AuthGuardPolicy policy, int fallbackMaxKeys) {
		this.authoritative = Objects.requireNonNull(authoritative, "authoritative");
		this.memory = RateLimitStores.inMemory(fallbackMaxKeys);
		this.fallback = new StoreBackedAuthGuardStore(memory, policy);
	}

	public AuthGuardStore authoritative() {
		return authoritative;
	}

	@Override
	public Reservation reserve(String addressKey, String credentialKey, long nowMillis) {
		try {
			return authoritative.reserve(addressKey, credentialKey, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			return fallbackReservation(addressKey, credentialKey, nowMillis);
		}
	}

	/**
	 * The authoritative store's reservation, read either way; when it cannot answer (it
	 * throws, its stage fails or times out) the fallback's, degraded.
	 */
	@Override
	public PendingReservation reserveAsync(String addressKey, String credentialKey, long nowMillis) {
		PendingReservation pending;
		try {
			pending = authoritative.reserveAsync(addressKey, credentialKey, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			return PendingReservation.of(fallbackReservation(addressKey, credentialKey, nowMillis));
		}
		return new PendingReservation() {

			@Override
			public Reservation await() {
				try {
					return pending.await();
				}
				catch (RateLimitStoreException unavailable) {
					return fallbackReservation(addressKey, credentialKey, nowMillis);
				}
			}

			@Override
			public CompletionStage<Reservation> toStage() {
				CompletionStage<Reservation> answer;
				try {
					answer = pending.toStage();
				}
				catch (RuntimeException failedToAsk) {
					answer = CompletableFuture.failedFuture(failedToAsk);
				}
				return answer.handle((reservation, failure) -> {
					if (failure == null) {
						return reservation;
					}
					RuntimeException cause = StoreCircuitBreaker.unwrapped(failure);
					if (cause instanceof RateLimitStoreException) {
						return fallbackReservation(addressKey, credentialKey, nowMillis);
					}
					throw cause;
				});
			}

		};
	}

	private Reservation fallbackReservation(String addressKey, String credentialKey, long nowMillis) {
		return fallback.reserve(addressKey, credentialKey, nowMillis).asDegraded().withLeaseIssuedBy(memory);
	}

	@Override
	public Failure fail(String addressKey, Lease reservation, long nowMillis) {
		if (fromFallback(reservation)) {
			return fallback.fail(addressKey, reservation, nowMillis);
		}
		try {
			return authoritative.fail(addressKey, reservation, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			// Counted where it can be: the authoritative reservation expires by itself.
			return fallback.fail(addressKey, null, nowMillis);
		}
	}

	@Override
	public CompletionStage<Failure> failAsync(String addressKey, Lease reservation, long nowMillis) {
		if (fromFallback(reservation)) {
			return CompletableFuture.completedFuture(fallback.fail(addressKey, reservation, nowMillis));
		}
		CompletionStage<Failure> sent;
		try {
			sent = authoritative.failAsync(addressKey, reservation, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			sent = CompletableFuture.failedFuture(unavailable);
		}
		// Counted where it can be: the authoritative reservation expires by itself.
		return sent.exceptionally(unavailable -> fallback.fail(addressKey, null, nowMillis));
	}

	@Override
	public void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis) {
		if (fromFallback(reservation)) {
			fallback.succeed(addressKey, reservation, credentialKey, nowMillis);
			return;
		}
		fallback.succeed(addressKey, null, credentialKey, nowMillis);
		authoritative.succeed(addressKey, reservation, credentialKey, nowMillis);
	}

	/** Lifted in both: the fallback may hold a block decided while the store was down. */
	@Override
	public boolean unblock(String addressKey, long nowMillis) {
		boolean lifted = fallback.unblock(addressKey, nowMillis);
		try {
			return authoritative.unblock(addressKey, nowMillis) || lifted;
		}
		catch (RateLimitStoreException unavailable) {
			return lifted;
		}
	}

	@Override
	public void release(Lease reservation, long nowMillis) {
		if (fromFallback(reservation)) {
			fallback.release(reservation, nowMillis);
			return;
		}
		authoritative.release(reservation, nowMillis);
	}

	@Override
	public GuardState state(String addressKey, long nowMillis) {
		try {
			return authoritative.state(addressKey, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			return fallback.state(addressKey, nowMillis);
		}
	}

	private boolean fromFallback(Lease reservation) {
		return reservation != null && reservation.issuer() == memory;
	}

}
