package dev.limiter.guard;

import java.io.IOException;
import java.time.Clock;

import dev.limiter.core.RequestStoreTime;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.PendingAdmission;
import dev.limiter.web.CorsHeaders;
import dev.limiter.web.LimiterAdmission;
import dev.limiter.web.PendingVerdict;
import dev.limiter.web.RequestEnd;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Runs before Spring Security's filter chain, so before any credential is looked up: a
 * request that carries an {@code Authorization} header from a blocked address is refused
 * with 429 and never reaches the lookup, and one from an address with too many lookups in
 * flight is told to retry in a second. An admitted request holds a reservation while its
 * credential is looked up, and the outcome is reported to the {@link AuthGuard} as soon
 * as it is known (an authentication event, or the request reaching the end of Spring
 * Security's chain), not when the handler is done:
 * <ul>
 * <li>authenticated (seen by {@link AuthenticationOutcomeFilter} or an authentication
 * success event) <em>and</em> admitted by the rate limiter ({@link LimiterAdmission}):
 * proves the credential for the address, and hands its own reservation back; nothing else
 * is cleared. Authenticated but refused by the limiter (or never reaching it): the
 * reservation is handed back, nothing proven;</li>
 * <li>failed (an authentication failure event, or a 401 answer without an
 * authentication): one failure;</li>
 * <li>anything else (the chain threw, no authentication took place): the reservation is
 * handed back.</li>
 * </ul>
 * A reservation the guard could not answer locally may travel while the credential is
 * looked up ({@link AuthGuard#begin}): its answer is read by the limiter's filter after
 * it sent the budget decision ({@link PendingVerdict}), or by the response the chain
 * writes to, or here when the chain returns, whichever comes first; a refusal is written
 * over whatever the lookup produced.
 * <p>
 * Logs name the address by its hash only, never the address, the header or the path.
 */
public class AuthGuardFilter extends OncePerRequestFilter {

	/** The error code of every 429 the guard writes. */
	public static final String ERROR_CODE = GuardOutcomes.ERROR_CODE;

	static final String ATTEMPT_ATTRIBUTE = AuthGuardFilter.class.getName() + ".ATTEMPT";

	private final GuardOutcomes outcomes;

	private final CorsHeaders cors;

	public AuthGuardFilter(AuthGuard guard, Clock clock) {
		this(guard, clock, GuardEvents.NONE);
	}

	/**
	 * @param events told of every refusal and every new block (the meters)
	 */
	public AuthGuardFilter(AuthGuard guard, Clock clock, GuardEvents events) {
		this(guard, clock, events, CorsHeaders.NONE);
	}

	/**
	 * @param events told of every refusal and every new block (the meters)
	 * @param cors the CORS headers a 429 carries, so that a browser on another origin can
	 * read it
	 */
	public AuthGuardFilter(AuthGuard guard, Clock clock, GuardEvents events, CorsHeaders cors) {
		this.outcomes = new GuardOutcomes(guard, clock, events, AuthGuardFilter.class);
		this.cors = cors;
	}

	/**
	 * A request without an {@code Authorization} header cannot be a guess: it is the
	 * anonymous budget's business, not the guard's.
	 */
	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return request.getHeader(HttpHeaders.AUTHORIZATION) == null;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		// One store timeout for the request: the limiter's budget decision later on
		// shares this one.
		try (RequestStoreTime.Scope storeTime = RequestStoreTime.open()) {
			guard(request, response, chain, request.getHeader(HttpHeaders.AUTHORIZATION));
		}
	}

	private void guard(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			String authorization) throws ServletException, IOException {
		PendingAdmission pending = outcomes.begin(request.getRemoteAddr(), authorization, true);
		if (pending == null) {
			chain.doFilter(request, response);
			return;
		}
		if (pending.isDone()) {
			GuardAdmission admission = pending.await();
			outcomes.answered(admission);
			if (!admission.admitted()) {
				refuse(request, response, admission);
				return;
			}
		}
		LookupAttempt attempt = new LookupAttempt(pending, settling -> outcomes.settle(settling, false));
		request.setAttribute(ATTEMPT_ATTRIBUTE, attempt);
		request.setAttribute(LimiterAdmission.ATTRIBUTE, (LimiterAdmission) attempt::limiterDecided);
		HttpServletResponse passedOn = response;
		Verdict verdict = null;
		if (!pending.isDone()) {
			// The reservation travels while the credential is looked up; no verdict of
			// the lookup reaches the client or the application before its answer.
			verdict = new Verdict(attempt, request, response);
			request.setAttribute(PendingVerdict.ATTRIBUTE, verdict);
			passedOn = new VerdictGatedResponse(response, verdict);
		}
		// A 401 is counted as it is set, before it can reach the client: the client's
		// next guess then finds it counted on this instance.
		passedOn = new FailureFirstResponse(passedOn, () -> {
			if (!attempt.authenticated()) {
				outcomes.settle(attempt, true);
			}
		});
		LookupAttempt outer = LookupAttempt.current();
		LookupAttempt.bind(attempt);
		boolean completed = false;
		try {
			chain.doFilter(request, passedOn);
			completed = true;
		}
		finally {
			LookupAttempt.bind(outer);
			// A refused reservation has its 429 written by now, and nothing to settle.
			boolean refused = verdict != null && verdict.refused();
			if (!refused && completed && request.isAsyncStarted() && !attempt.authenticated() && !attempt.failed()) {
				request.getAsyncContext().addListener(new RequestEnd((status, ok) -> settle(attempt, status, ok)));
			}
			else if (!refused) {
				settle(attempt, response.getStatus(), completed);
			}
		}
	}

	private void settle(LookupAttempt attempt, int status, boolean completed) {
		outcomes.settle(attempt, completed && status == HttpServletResponse.SC_UNAUTHORIZED);
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, GuardAdmission admission)
			throws IOException {
		outcomes.refusal(admission).writeTo(response, r -> cors.applyTo(request, r));
	}

	/**
	 * The answer of a reservation sent before the lookup: read by the first filter that
	 * needs it (the limiter's, after its budget decision) or by the gated response, and
	 * at the latest when the chain returns; a refusal is written once, over anything the
	 * chain left in the response.
	 */
	private final class Verdict implements PendingVerdict {

		private final LookupAttempt attempt;

		private final HttpServletRequest request;

		private final HttpServletResponse response;

		private boolean answered;

		private boolean refused;

		Verdict(LookupAttempt attempt, HttpServletRequest request, HttpServletResponse response) {
			this.attempt = attempt;
			this.request = request;
			this.response = response;
		}

		@Override
		public synchronized boolean refused() throws IOException {
			if (!answered) {
				answered = true;
				GuardAdmission admission = attempt.awaitAdmission();
				outcomes.answered(admission);
				refused = !admission.admitted();
				if (refused && !response.isCommitted()) {
					response.reset();
					refuse(request, response, admission);
				}
			}
			return refused;
		}

	}

}
