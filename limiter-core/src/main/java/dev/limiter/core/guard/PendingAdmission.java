package dev.limiter.core.guard;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The guard's answer before a lookup, possibly still on its way from the store
 * ({@link AuthGuard#begin}, {@link AuthGuard#beginWithoutWaiting}): read it before the
 * lookup's verdict is used, with {@link #await()} on a thread that may wait, or
 * {@link #toStage()} on one that must not. The answer is computed once, whichever thread
 * asks first and whichever way; later calls return it.
 */
public final class PendingAdmission {

	private Supplier<GuardAdmission> answer;

	private Supplier<CompletionStage<GuardAdmission>> stagedAnswer;

	private final boolean lookupWaits;

	private volatile GuardAdmission admission;

	/** Set once {@link #toStage()} asked the store's answer without waiting. */
	private CompletableFuture<GuardAdmission> staged;

	private PendingAdmission(Supplier<GuardAdmission> answer, Supplier<CompletionStage<GuardAdmission>> stagedAnswer,
			boolean lookupWaits, GuardAdmission admission) {
		this.answer = answer;
		this.stagedAnswer = stagedAnswer;
		this.lookupWaits = lookupWaits;
		this.admission = admission;
	}

	/** An answer known without the store. */
	public static PendingAdmission of(GuardAdmission admission) {
		return new PendingAdmission(null, null, false, admission);
	}

	/**
	 * An answer still on its way.
	 * @param answer reads it, waiting
	 * @param stagedAnswer reads it without waiting
	 * @param lookupWaits whether the lookup must wait for it (it may not run ahead of its
	 * reservation)
	 */
	static PendingAdmission awaiting(Supplier<GuardAdmission> answer,
			Supplier<CompletionStage<GuardAdmission>> stagedAnswer, boolean lookupWaits) {
		return new PendingAdmission(answer, stagedAnswer, lookupWaits, null);
	}

	/** Whether {@link #await()} answers without waiting. */
	public boolean isDone() {
		return admission != null;
	}

	/**
	 * Whether the lookup must wait for this answer before it starts: only
	 * {@link AuthGuard#beginWithoutWaiting} hands out such an answer (where
	 * {@link AuthGuard#begin} would have waited for it itself), when this instance lets
	 * no more of the address's lookups run ahead of their reservation.
	 */
	public boolean lookupWaits() {
		return lookupWaits && admission == null;
	}

	/**
	 * The admission, waiting for the store's answer if needed; never throws for a store
	 * failure (the guard fails open).
	 */
	public GuardAdmission await() {
		GuardAdmission known = admission;
		if (known != null) {
			return known;
		}
		CompletableFuture<GuardAdmission> asked;
		synchronized (this) {
			if (admission != null) {
				return admission;
			}
			asked = staged;
			if (asked == null) {
				admission = answer.get();
				answer = null;
				stagedAnswer = null;
				return admission;
			}
		}
		return asked.join();
	}

	/**
	 * The admission without waiting for the store: the stage completes with it once the
	 * store's answer is in (on the store's I/O thread), never exceptionally for a store
	 * failure (the guard fails open), and at once when it is known already.
	 */
	public CompletionStage<GuardAdmission> toStage() {
		GuardAdmission known = admission;
		if (known != null) {
			return CompletableFuture.completedFuture(known);
		}
		synchronized (this) {
			if (admission != null) {
				return CompletableFuture.completedFuture(admission);
			}
			if (staged == null) {
				Supplier<CompletionStage<GuardAdmission>> ask = stagedAnswer;
				answer = null;
				stagedAnswer = null;
				staged = ask.get().toCompletableFuture().whenComplete((answered, failure) -> {
					if (answered != null) {
						admission = answered;
					}
				});
			}
			return staged;
		}
	}

}
