package dev.limiter.guard;

/**
 * Told of what the authentication guard does to addresses (the meters listen). Called on
 * request threads, and on the store's threads for a block: must be fast and must not
 * throw.
 */
public interface GuardEvents {

	/** Nobody listens. */
	GuardEvents NONE = new GuardEvents() {
	};

	/**
	 * The guard answered 429 before any lookup.
	 * @param blocked {@code true} for an address blocked after too many failures,
	 * {@code false} for one with too many lookups in flight
	 */
	default void refused(boolean blocked) {
	}

	/** An address reached the failure threshold and is blocked from now on. */
	default void blocked() {
	}

}
