package dev.limiter.core.guard;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.limiter.core.RateLimitStoreException;

/**
 * A reservation sent to the guard's store ({@link AuthGuardStore#reserveAsync}) whose
 * answer has not been read yet: the credential lookup runs while it travels, and its
 * verdict is used only once the answer is in. Read it once, either way: {@link #await()}
 * on a thread that may wait (a servlet request's), {@link #toStage()} on one that must
 * not (a reactive request's event loop).
 */
@FunctionalInterface
public interface PendingReservation {

	/**
	 * The store's answer, waiting for it if it has not arrived. Called at most once.
	 * @throws RateLimitStoreException when the store cannot answer
	 */
	AuthGuardStore.Reservation await();

	/**
	 * The store's answer without waiting for it: the stage completes with it, or
	 * exceptionally with a {@link RateLimitStoreException} (possibly wrapped in a
	 * {@link java.util.concurrent.CompletionException}) when the store cannot answer
	 * within its timeout. A store whose answer travels over a network completes it from
	 * its I/O thread; this default reads {@link #await()} on the calling thread, which
	 * suits an answer already in ({@link #isDone()}) or one from memory. Called at most
	 * once, instead of {@link #await()}.
	 */
	default CompletionStage<AuthGuardStore.Reservation> toStage() {
		try {
			return CompletableFuture.completedFuture(await());
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

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

	/**
	 * A reservation that could not even be sent: {@link #await()} throws {@code failure},
	 * {@link #toStage()} fails with it.
	 */
	static PendingReservation failed(RuntimeException failure) {
		return new PendingReservation() {

			@Override
			public AuthGuardStore.Reservation await() {
				throw failure;
			}

			@Override
			public CompletionStage<AuthGuardStore.Reservation> toStage() {
				return CompletableFuture.failedFuture(failure);
			}

			@Override
			public boolean isDone() {
				return true;
			}

		};
	}

}
