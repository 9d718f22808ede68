package dev.limiter.core.guard;

import java.time.Duration;
import java.util.Objects;

import dev.limiter.core.InvalidValueException;

/**
 * The numbers of the authentication-failure guard.
 *
 * @param threshold failed authentications from one address, inside {@code window}, that
 * start a block
 * @param window how long a failure counts against its address after it happened
 * @param block how long an address that reached the threshold is refused
 * @param maxPending credential lookups one address may have in flight at once
 * @param lookupLease how long an unreleased reservation for a lookup in flight lives (a
 * crashed instance cannot hold it longer)
 * @param rememberAuthenticated how long an instance remembers a credential it saw
 * authenticate, during which the credential's lookups need no reservation; zero turns the
 * memory off
 */
public record AuthGuardPolicy(int threshold, Duration window, Duration block, int maxPending, Duration lookupLease,
		Duration rememberAuthenticated) {

	public static final int DEFAULT_THRESHOLD = 50;

	public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(15);

	public static final Duration DEFAULT_BLOCK = Duration.ofMinutes(30);

	public static final int DEFAULT_MAX_PENDING = 50;

	public static final Duration DEFAULT_LOOKUP_LEASE = Duration.ofSeconds(30);

	public static final Duration DEFAULT_REMEMBER_AUTHENTICATED = Duration.ofMinutes(5);

	/**
	 * How many proven credentials the store keeps per address (the most recently proven;
	 * the oldest is dropped): each is let through a block of its address to its lookup.
	 */
	public static final int PROVEN_CREDENTIALS_PER_ADDRESS = 16;

	public AuthGuardPolicy(int threshold, Duration window, Duration block, int maxPending, Duration lookupLease) {
		this(threshold, window, block, maxPending, lookupLease, DEFAULT_REMEMBER_AUTHENTICATED);
	}

	public AuthGuardPolicy {
		Objects.requireNonNull(window, "window");
		Objects.requireNonNull(block, "block");
		Objects.requireNonNull(lookupLease, "lookupLease");
		Objects.requireNonNull(rememberAuthenticated, "rememberAuthenticated");
		if (rememberAuthenticated.isNegative()) {
			throw new InvalidValueException(Field.REMEMBER_AUTHENTICATED, "remember-authenticated ",
					"must not be negative, was " + rememberAuthenticated);
		}
		if (threshold < 1) {
			throw new InvalidValueException(Field.THRESHOLD, "threshold ", "must be at least 1, was " + threshold);
		}
		if (maxPending < 1) {
			throw new InvalidValueException(Field.MAX_PENDING, "max-pending ", "must be at least 1, was " + maxPending);
		}
		if (window.toMillis() < 1) {
			throw new InvalidValueException(Field.WINDOW, "window ", "must be at least 1ms, was " + window);
		}
		if (block.toMillis() < 1) {
			throw new InvalidValueException(Field.BLOCK, "block ", "must be at least 1ms, was " + block);
		}
		if (lookupLease.toMillis() < 1) {
			throw new InvalidValueException(Field.LOOKUP_LEASE, "lookup lease ",
					"must be at least 1ms, was " + lookupLease);
		}
	}

	/**
	 * The Aport numbers: 50 failures inside 15 minutes block for 30 minutes; 50 lookups
	 * in flight.
	 */
	public static AuthGuardPolicy defaults() {
		return new AuthGuardPolicy(DEFAULT_THRESHOLD, DEFAULT_WINDOW, DEFAULT_BLOCK, DEFAULT_MAX_PENDING,
				DEFAULT_LOOKUP_LEASE);
	}

	/**
	 * The values a guard policy checks, as {@link InvalidValueException#field()} names
	 * them.
	 */
	public enum Field {

		/** Failures that block an address. */
		THRESHOLD,

		/** How long failures are counted. */
		WINDOW,

		/** How long a block lasts. */
		BLOCK,

		/** Lookups one address may have in flight. */
		MAX_PENDING,

		/** How long a lookup's reservation lives if never settled. */
		LOOKUP_LEASE,

		/** How long an instance remembers a credential that authenticated. */
		REMEMBER_AUTHENTICATED

	}

}
