package dev.limiter.core.guard;

/**
 * What the store holds for one address, read without counting.
 *
 * @param failures completed failures still inside the window
 * @param pending lookups in flight (reservations held)
 * @param blockedUntilMillis when the block ends, or 0 when the address is not blocked
 * @param proven credentials proven from the address within the window (at most
 * {@link AuthGuardPolicy#PROVEN_CREDENTIALS_PER_ADDRESS}), which a block lets through
 */
public record GuardState(long failures, long pending, long blockedUntilMillis, long proven) {

	public GuardState(long failures, long pending, long blockedUntilMillis) {
		this(failures, pending, blockedUntilMillis, 0);
	}

	public boolean blocked() {
		return blockedUntilMillis > 0;
	}
}
