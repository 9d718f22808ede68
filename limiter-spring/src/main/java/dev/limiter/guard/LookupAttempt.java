package dev.limiter.guard;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.core.guard.GuardAdmission;

/**
 * One admitted request whose credential is being looked up: what the guard admitted, what
 * was learned about the lookup while the request ran, and a latch so its reservation is
 * settled exactly once. The verdict settles the reservation the moment it is learned, so
 * a handler that runs long after authentication holds none.
 */
final class LookupAttempt {

	/**
	 * Hands an attempt's reservation back to the guard with whatever the attempt learned.
	 */
	interface Settler {

		void settle(LookupAttempt attempt);

	}

	private static final ThreadLocal<LookupAttempt> CURRENT = new ThreadLocal<>();

	private final GuardAdmission admission;

	private final Settler settler;

	private final AtomicBoolean settled = new AtomicBoolean();

	private volatile boolean authenticated;

	private volatile boolean failed;

	LookupAttempt(GuardAdmission admission, Settler settler) {
		this.admission = admission;
		this.settler = settler;
	}

	/**
	 * The attempt whose request this thread is running, if any (authentication events
	 * arrive on it).
	 */
	static LookupAttempt current() {
		return CURRENT.get();
	}

	static void bind(LookupAttempt attempt) {
		if (attempt == null) {
			CURRENT.remove();
		}
		else {
			CURRENT.set(attempt);
		}
	}

	GuardAdmission admission() {
		return admission;
	}

	/** The credential proved right: settles now. */
	void markAuthenticated() {
		authenticated = true;
		settler.settle(this);
	}

	/** The credential proved wrong: settles now. */
	void markFailed() {
		failed = true;
		settler.settle(this);
	}

	/**
	 * The request passed Spring Security without an authentication: its header played no
	 * part in it, so the reservation goes back now rather than when the handler is done.
	 */
	void markPassedUnauthenticated() {
		settler.settle(this);
	}

	boolean authenticated() {
		return authenticated;
	}

	boolean failed() {
		return failed;
	}

	/** True exactly once: for the caller that gets to hand the reservation back. */
	boolean settle() {
		return settled.compareAndSet(false, true);
	}

}
