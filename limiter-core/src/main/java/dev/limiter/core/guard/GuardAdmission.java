package dev.limiter.core.guard;

import java.util.Optional;

import dev.limiter.core.Lease;
import dev.limiter.core.Seconds;

/**
 * The guard's answer before a credential lookup. An admitted request carries the
 * reservation it must hand back through {@link AuthGuard#succeeded},
 * {@link AuthGuard#failed} or {@link AuthGuard#abandoned}.
 *
 * @param outcome what the guard decided
 * @param addressKey the key the address is counted under
 * @param retryAfterMillis exact wait for a block, one second for saturation, zero when
 * admitted
 * @param reservation the lookup's reservation; {@code null} unless admitted (and when the
 * store could not take one)
 * @param degraded whether the answer was decided without the authoritative store
 * @param failuresSeen completed failures of the address when the request was admitted
 * @param credentialKey the hash of the credential presented, remembered once it
 * authenticates; {@code null} when the caller did not say
 */
public record GuardAdmission(Outcome outcome, String addressKey, long retryAfterMillis, Lease reservation,
		boolean degraded, long failuresSeen, String credentialKey) {

	public GuardAdmission(Outcome outcome, String addressKey, long retryAfterMillis, Lease reservation,
			boolean degraded, long failuresSeen) {
		this(outcome, addressKey, retryAfterMillis, reservation, degraded, failuresSeen, null);
	}

	/** An admission, holding {@code reservation} if the store took one. */
	static GuardAdmission admitted(String addressKey, Lease reservation, boolean degraded, long failuresSeen,
			String credentialKey) {
		return new GuardAdmission(Outcome.ADMITTED, addressKey, 0, reservation, degraded, failuresSeen, credentialKey);
	}

	/** A refusal ({@code BLOCKED} or {@code SATURATED}): nothing reserved. */
	static GuardAdmission refused(Outcome outcome, String addressKey, long retryAfterMillis, boolean degraded) {
		return new GuardAdmission(outcome, addressKey, retryAfterMillis, null, degraded, 0);
	}

	/** What the guard decided before the lookup. */
	public enum Outcome {

		/** Go ahead and look the credential up. */
		ADMITTED,
		/**
		 * The address reached the failure threshold and is refused until the block ends.
		 */
		BLOCKED,
		/**
		 * Too many lookups from the address are in flight; try again in a second. Starts
		 * no block.
		 */
		SATURATED

	}

	public boolean admitted() {
		return outcome == Outcome.ADMITTED;
	}

	public Optional<Lease> reservationLease() {
		return Optional.ofNullable(reservation);
	}

	/**
	 * {@link #retryAfterMillis()} in whole seconds, rounded up, at least 1 for a refusal.
	 */
	public long retryAfterSeconds() {
		if (admitted()) {
			return 0;
		}
		return Seconds.atLeastOne(retryAfterMillis);
	}
}
