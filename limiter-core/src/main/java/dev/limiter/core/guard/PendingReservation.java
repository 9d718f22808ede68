package dev.limiter.core.guard;

import dev.limiter.core.RateLimitStoreException;

/**
 * A reservation sent to the guard's store ({@link AuthGuardStore#reserveAsync}) whose
 * answer has not been read yet: the credential lookup runs while it travels, and its
 * verdict is used only once the answer is in.
 */
@FunctionalInterface
public interface PendingReservation {

	/**
	 * The store's answer, waiting for it if it has not arrived. Called at most once.
	 * @throws RateLimitStoreException when the store cannot answer
	 */
	AuthGuardStore.Reservation await();

	/** Whether {@link #await()} answers without waiting. */
	default boolean isDone() {
		return false;
	}

	/** A reservation already answered. */
	static PendingReservation of(AuthGuardStore.Reservation reservation) {
		return new PendingReservation() {

			@Override
			public AuthGuardStore.Reservation await() {
				return reservation;
			}

			@Override
			public boolean isDone() {
				return true;
			}

		};
	}

}
