package dev.limiter.guard;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.PendingAdmission;

/**
 * One admitted request whose credential is being looked up: the guard's admission
 * (possibly still on its way from the store), what was learned about the lookup while the
 * request ran, and a latch so its reservation is settled exactly once. A verdict settles
 * the reservation as soon as both it and the admission are known, so a handler that runs
 * long after authentication holds none. Public for the reactive guard filter, which
 * settles its attempts by the same rule; not an extension point.
 */
public final class LookupAttempt {

	/**
	 * Hands an attempt's reservation back to the guard with whatever the attempt learned.
	 */
	public interface Settler {

		void settle(LookupAttempt attempt);

	}

	private static final ThreadLocal<LookupAttempt> CURRENT = new ThreadLocal<>();

	private final PendingAdmission admission;

	private final Settler settler;

	private final AtomicBoolean settled = new AtomicBoolean();

	private volatile boolean authenticated;

	private volatile boolean failed;

	private volatile boolean passed;

	private volatile boolean limiterDecided;

	private volatile boolean limiterAdmitted;

	public LookupAttempt(PendingAdmission admission, Settler settler) {
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

	/** The guard's admission, waiting for the store's answer if it is still out. */
	GuardAdmission admission() {
		return admission.await();
	}

	/**
	 * The guard's admission, waiting for it if needed; a verdict learned before it
	 * arrived is settled now.
	 */
	GuardAdmission awaitAdmission() {
		GuardAdmission answer = admission.await();
		if (failed || passed || limiterDecided) {
			settler.settle(this);
		}
		return answer;
	}

	/**
	 * The credential proved right: a success only if the limiter admits the request too,
	 * so it is settled once the limiter has decided ({@link #limiterDecided}) and the
	 * admission is known, or at the end of the request.
	 */
	public void markAuthenticated() {
		authenticated = true;
	}

	/**
	 * The rate limiter decided on the request (or none follows, and nothing refuses it):
	 * settles as soon as the admission is known (the budget decision travels meanwhile).
	 */
	public void limiterDecided(boolean admitted) {
		limiterAdmitted = admitted;
		limiterDecided = true;
		settleIfAdmissionKnown();
	}

	/**
	 * The credential proved wrong: settles now, waiting for the admission if needed (the
	 * failure is counted where the reservation was taken).
	 */
	public void markFailed() {
		failed = true;
		settler.settle(this);
	}

	/**
	 * The request passed Spring Security without an authentication: its header played no
	 * part in it, so the reservation goes back as soon as the admission is known rather
	 * than when the handler is done.
	 */
	public void markPassedUnauthenticated() {
		passed = true;
		settleIfAdmissionKnown();
	}

	private void settleIfAdmissionKnown() {
		if (admission.isDone()) {
			settler.settle(this);
		}
	}

	public boolean authenticated() {
		return authenticated;
	}

	public boolean failed() {
		return failed;
	}

	/** Whether the rate limiter let the request through. */
	boolean admittedByLimiter() {
		return limiterAdmitted;
	}

	/** True exactly once: for the caller that gets to hand the reservation back. */
	boolean settle() {
		return settled.compareAndSet(false, true);
	}

}
