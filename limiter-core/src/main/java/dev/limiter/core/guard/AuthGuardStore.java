package dev.limiter.core.guard;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;

/**
 * Where the authentication-failure guard keeps an address's failures, lookups in flight
 * and block: the guard's own store SPI, so that a remote store can do each step in one
 * round trip. Every implementation applies the rules of {@link AuthGuard} and passes the
 * same contract suite; the policy is given when the store is made.
 *
 * <p>
 * Time is a parameter: implementations never read a clock. They may throw
 * {@link dev.limiter.core.RateLimitStoreException} when they cannot answer; they never
 * guess.
 */
public interface AuthGuardStore {

	/**
	 * One atomic step before a lookup of {@code credentialKey}
	 * ({@link AuthGuard#credentialKey}; {@code null} when unknown): a credential proven
	 * from this address within the window ({@link #succeed}) is admitted without a
	 * reservation, even through a running block (whose end the answer then carries).
	 * Otherwise a running block refuses with its end (and says whether the address has
	 * proven credentials); otherwise a reservation is taken unless {@code max-pending}
	 * lookups are in flight, or completed failures plus lookups in flight (this one
	 * included) would pass the threshold (both <em>saturated</em>, nothing held).
	 * Completed failures already at the threshold start the block (an instance died
	 * between the failure and the block).
	 */
	Reservation reserve(String addressKey, String credentialKey, long nowMillis);

	/** {@link #reserve(String, String, long)} for a credential not known. */
	default Reservation reserve(String addressKey, long nowMillis) {
		return reserve(addressKey, null, nowMillis);
	}

	/**
	 * Sends {@link #reserve} and returns without waiting for the answer, so that the
	 * lookup runs while it travels; failures may surface here or from
	 * {@link PendingReservation#await()}. By default the reservation is taken at once.
	 */
	default PendingReservation reserveAsync(String addressKey, String credentialKey, long nowMillis) {
		return PendingReservation.of(reserve(addressKey, credentialKey, nowMillis));
	}

	/** {@link #reserveAsync(String, String, long)} for a credential not known. */
	default PendingReservation reserveAsync(String addressKey, long nowMillis) {
		return reserveAsync(addressKey, null, nowMillis);
	}

	/**
	 * Counts one failure and hands {@code reservation} back (if any) in one atomic step,
	 * so that failures plus lookups in flight never dip while a lookup completes. The
	 * failure that reaches the threshold starts the block, exactly {@code block} long
	 * from now, and drops the failures it replaces.
	 */
	Failure fail(String addressKey, Lease reservation, long nowMillis);

	/**
	 * {@link #fail} without waiting for the answer: nothing on the response path needs
	 * it, and commands on one connection run in the order they were written, so this
	 * instance's next call already sees the failure. The stage completes with the answer,
	 * or exceptionally with a {@link dev.limiter.core.RateLimitStoreException} within the
	 * store's timeout. By default the failure is counted at once.
	 */
	default CompletionStage<Failure> failAsync(String addressKey, Lease reservation, long nowMillis) {
		try {
			return CompletableFuture.completedFuture(fail(addressKey, reservation, nowMillis));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * A lookup of {@code credentialKey} succeeded and the request was admitted: hands
	 * {@code reservation} back (if any) and remembers the credential, by its hash, as
	 * proven from this address for {@code window} from now (at most
	 * {@link AuthGuardPolicy#PROVEN_CREDENTIALS_PER_ADDRESS} per address, the oldest
	 * dropped). Clears nothing else: the address's failures, other reservations and a
	 * running block stay, because one credential's success says nothing about the other
	 * guesses from its address. May be asynchronous: it is never on the response path.
	 */
	void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis);

	/**
	 * An operator lifts the address's block: the block and its completed failures are
	 * dropped (lookups in flight and proven credentials stay), so the address is counted
	 * from zero. Whether a block was running.
	 */
	boolean unblock(String addressKey, long nowMillis);

	/**
	 * Hands a reservation back without a verdict; a second release is a no-op. May be
	 * asynchronous.
	 */
	void release(Lease reservation, long nowMillis);

	/**
	 * Reads an address's failures, lookups in flight and block without counting anything.
	 */
	GuardState state(String addressKey, long nowMillis);

	/**
	 * What {@link #reserve} decided.
	 *
	 * @param outcome admitted, blocked or saturated
	 * @param blockedUntilMillis the end of the block when blocked, or when a proven
	 * credential was admitted through it; else 0
	 * @param lease the reservation when admitted, else {@code null} (a proven credential
	 * takes none)
	 * @param failuresSeen completed failures of the address when admitted
	 * @param degraded whether the answer came from a fallback instead of the
	 * authoritative store
	 * @param provenCredentials whether the address has credentials proven within the
	 * window (told with a block: an instance may then refuse unknown credentials without
	 * asking again only when there are none)
	 */
	record Reservation(GuardAdmission.Outcome outcome, long blockedUntilMillis, Lease lease, long failuresSeen,
			boolean degraded, boolean provenCredentials) {

		public Reservation(GuardAdmission.Outcome outcome, long blockedUntilMillis, Lease lease, long failuresSeen,
				boolean degraded) {
			this(outcome, blockedUntilMillis, lease, failuresSeen, degraded, false);
		}

		/**
		 * A proven credential, admitted without a reservation (through a block or not).
		 */
		public static Reservation proven(long blockedUntilMillis, boolean degraded) {
			return new Reservation(GuardAdmission.Outcome.ADMITTED, blockedUntilMillis, null, 0, degraded, true);
		}

		public Reservation asDegraded() {
			return new Reservation(outcome, blockedUntilMillis, lease, failuresSeen, true, provenCredentials);
		}

		/** The same reservation, its lease bound to the store that must take it back. */
		public Reservation withLeaseIssuedBy(RateLimitStore issuer) {
			return lease == null ? this : new Reservation(outcome, blockedUntilMillis, lease.issuedBy(issuer),
					failuresSeen, degraded, provenCredentials);
		}
	}

	/**
	 * What {@link #fail} did.
	 *
	 * @param reachedThreshold whether this failure started the block
	 * @param blockedUntilMillis the end of the block this failure started or found
	 * running, else 0
	 * @param provenCredentials whether the address has credentials proven within the
	 * window (as {@link Reservation#provenCredentials()})
	 */
	record Failure(boolean reachedThreshold, long blockedUntilMillis, boolean provenCredentials) {

		public Failure(boolean reachedThreshold, long blockedUntilMillis) {
			this(reachedThreshold, blockedUntilMillis, false);
		}
	}

}
