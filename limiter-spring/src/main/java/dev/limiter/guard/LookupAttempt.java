package dev.limiter.guard;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.core.guard.GuardAdmission;

/**
 * One admitted request whose credential is being looked up: what the guard admitted, what was learned about
 * the lookup while the request ran, and a latch so its reservation is settled exactly once.
 */
final class LookupAttempt {

    private static final ThreadLocal<LookupAttempt> CURRENT = new ThreadLocal<>();

    private final GuardAdmission admission;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile boolean authenticated;
    private volatile boolean failed;

    LookupAttempt(GuardAdmission admission) {
        this.admission = admission;
    }

    /** The attempt whose request this thread is running, if any (authentication events arrive on it). */
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

    void markAuthenticated() {
        authenticated = true;
    }

    void markFailed() {
        failed = true;
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
