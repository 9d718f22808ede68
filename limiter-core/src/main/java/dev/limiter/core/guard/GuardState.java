package dev.limiter.core.guard;

/**
 * What the store holds for one address, read without counting.
 *
 * @param failures completed failures still inside the window
 * @param pending lookups in flight (reservations held)
 * @param blockedUntilMillis when the block ends, or 0 when the address is not blocked
 */
public record GuardState(long failures, long pending, long blockedUntilMillis) {

	public boolean blocked() {
		return blockedUntilMillis > 0;
	}
}
