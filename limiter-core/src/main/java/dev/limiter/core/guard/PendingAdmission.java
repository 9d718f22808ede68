package dev.limiter.core.guard;

import java.util.function.Supplier;

/**
 * The guard's answer before a lookup, possibly still on its way from the store
 * ({@link AuthGuard#begin}): read it with {@link #await()} before the lookup's verdict is
 * used. The answer is computed once, whichever thread asks first; later calls return it.
 */
public final class PendingAdmission {

	private Supplier<GuardAdmission> answer;

	private volatile GuardAdmission admission;

	private PendingAdmission(Supplier<GuardAdmission> answer, GuardAdmission admission) {
		this.answer = answer;
		this.admission = admission;
	}

	/** An answer known without the store. */
	public static PendingAdmission of(GuardAdmission admission) {
		return new PendingAdmission(null, admission);
	}

	static PendingAdmission awaiting(Supplier<GuardAdmission> answer) {
		return new PendingAdmission(answer, null);
	}

	/** Whether {@link #await()} answers without waiting. */
	public boolean isDone() {
		return admission != null;
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
		synchronized (this) {
			if (admission == null) {
				admission = answer.get();
				answer = null;
			}
			return admission;
		}
	}

}
