package dev.limiter.guard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.PendingAdmission;
import dev.limiter.resilience.FailurePolicy;
import dev.limiter.resilience.OutageLog;
import dev.limiter.web.KeyValueLog;
import dev.limiter.web.ProblemResponse;
import dev.limiter.web.RateLimitHeader;

/**
 * What the authentication guard does with one request, whichever web stack carries it (no
 * servlet type): the reservation before the lookup, the 429 of a refused one, and the
 * settlement of an admitted one by what its lookup proved. The servlet's
 * {@link AuthGuardFilter} and the reactive guard filter are each a thin adapter over it,
 * so both answer, count, meter and log alike.
 * <p>
 * Logs name the address by its hash only, never the address, the header or the path.
 */
public final class GuardOutcomes {

	/** The error code of every 429 the guard writes. */
	public static final String ERROR_CODE = "auth_rate_limit_exceeded";

	private static final String GUARD_STORE = "guard";

	private final AuthGuard guard;

	private final Clock clock;

	private final GuardEvents events;

	private final OutageLog outageLog;

	/** The WARN of a block, with its facts as key-value pairs. */
	private final KeyValueLog blocks;

	/**
	 * @param events told of every refusal and every new block (the meters)
	 * @param owner the adapter, whose name the logs carry
	 */
	public GuardOutcomes(AuthGuard guard, Clock clock, GuardEvents events, Class<?> owner) {
		this.guard = guard;
		this.clock = clock;
		this.events = events;
		this.outageLog = FailurePolicy.unguardedLookupsLog(owner.getName());
		this.blocks = KeyValueLog.of(owner);
	}

	public AuthGuard guard() {
		return guard;
	}

	/**
	 * The guard's answer for a request carrying {@code authorization} from
	 * {@code remoteAddress}, possibly still on its way; {@code null} when the guard could
	 * not even be asked (the request goes on unguarded, the outage logged).
	 * @param mayWait whether the calling thread may wait for the store
	 * ({@link AuthGuard#begin}) or not ({@link AuthGuard#beginWithoutWaiting})
	 */
	public PendingAdmission begin(String remoteAddress, String authorization, boolean mayWait) {
		String addressKey = AuthGuard.addressKey(remoteAddress);
		String credentialKey = AuthGuard.credentialKey(authorization);
		try {
			return mayWait ? guard.begin(addressKey, credentialKey, clock.millis())
					: guard.beginWithoutWaiting(addressKey, credentialKey, clock.millis());
		}
		catch (RuntimeException ex) {
			outageLog.degraded(GUARD_STORE, ex);
			return null;
		}
	}

	/** The store's answer arrived: a real one ends an outage. */
	public void answered(GuardAdmission admission) {
		if (!admission.degraded()) {
			outageLog.recovered(GUARD_STORE);
		}
	}

	/**
	 * The 429 of a refused admission (a blocked address, or one with too many lookups in
	 * flight), told to the meters: its status, headers and body, whichever stack writes
	 * it.
	 */
	public ProblemResponse refusal(GuardAdmission admission) {
		boolean blocked = admission.outcome() == GuardAdmission.Outcome.BLOCKED;
		events.refused(blocked);
		long retryAfter = admission.retryAfterSeconds();
		String message = blocked
				? "Too many failed authentications from this address; retry after " + retryAfter + " seconds."
				: "Too many authentications from this address are in progress; retry after " + retryAfter + " second.";
		ProblemResponse problem = ProblemResponse.of(429, "Too Many Requests")
			.detail(message)
			.with("error", ERROR_CODE)
			.with("message", message)
			.retryAfter(retryAfter)
			.with("bound", blocked ? "block" : "pending");
		if (blocked) {
			problem.with("resetTime",
					Instant.ofEpochMilli(clock.millis()).plus(Duration.ofSeconds(retryAfter)).toString());
		}
		if (admission.degraded()) {
			problem.header(RateLimitHeader.DEGRADED.headerName(), RateLimitHeader.DEGRADED_VALUE);
		}
		return problem;
	}

	/**
	 * Hands an admitted attempt's reservation back, once, by what its lookup proved:
	 * authenticated and admitted by the limiter proves the credential; authenticated but
	 * refused (or never decided) proves nothing; a failure (an authentication failure, or
	 * a {@code 401} answered without an authentication) is counted, without waiting, and
	 * blocks the address once the threshold is reached; anything else only hands the
	 * reservation back.
	 * @param unauthorized whether the request was answered {@code 401}
	 */
	public void settle(LookupAttempt attempt, boolean unauthorized) {
		GuardAdmission admission = attempt.admission();
		if (!admission.admitted() || !attempt.settle()) {
			// refused: nothing was reserved, and the lookup's verdict was withheld
			return;
		}
		long now = clock.millis();
		try {
			if (attempt.authenticated() && attempt.admittedByLimiter()) {
				guard.succeeded(admission, now);
			}
			else if (attempt.authenticated()) {
				// refused by the limiter (or never reaching it): a refused caller proves
				// nothing
				guard.abandoned(admission, now);
			}
			else if (attempt.failed() || unauthorized) {
				// Not waited for: the 401 does not depend on it.
				guard.failedWithoutWaiting(admission, now).thenAccept((reachedThreshold) -> {
					if (reachedThreshold) {
						blocked(admission);
					}
				});
			}
			else {
				guard.abandoned(admission, now);
			}
		}
		catch (RuntimeException ex) {
			outageLog.degraded(GUARD_STORE, ex);
		}
	}

	private void blocked(GuardAdmission admission) {
		events.blocked();
		blocks.warn(
				"Authentication guard: address " + admission.addressKey() + " reached " + guard.policy().threshold()
						+ " failed authentications; blocked for " + guard.policy().block(),
				"address", admission.addressKey(), "threshold", guard.policy().threshold(), "blockSeconds",
				guard.policy().block().toSeconds());
	}

}
