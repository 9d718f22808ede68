package dev.limiter.guard;

import java.io.IOException;

import dev.limiter.web.PendingVerdict;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Runs just after Spring Security's filter chain, where the {@code SecurityContext} is
 * still populated: a request the chain let through with a real (non-anonymous)
 * authentication proved its credential, whatever mechanism looked it up. That is the
 * positive evidence the guard needs before it proves a credential; a status code alone is
 * not (a path that ignores security answers 200 to any header). The success counts only
 * once the limiter's filter after this one admits the request too (when there is none,
 * nothing refuses it): the attempt is settled then, before the handler runs.
 *
 * <p>
 * A guard reservation still on its way is awaited here unless the limiter's filter
 * follows: that one sends its budget decision first and then reads both answers, so the
 * request waits for one round trip.
 */
public class AuthenticationOutcomeFilter extends OncePerRequestFilter {

	private static final AuthenticationTrustResolver TRUST = new AuthenticationTrustResolverImpl();

	private final boolean verdictReadDownstream;

	/** An outcome filter that reads a pending guard verdict itself. */
	public AuthenticationOutcomeFilter() {
		this(false);
	}

	/**
	 * @param verdictReadDownstream whether a filter after this one (the limiter's) reads
	 * a pending guard verdict before the application runs
	 */
	public AuthenticationOutcomeFilter(boolean verdictReadDownstream) {
		this.verdictReadDownstream = verdictReadDownstream;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getAttribute(AuthGuardFilter.ATTEMPT_ATTRIBUTE) instanceof LookupAttempt attempt) {
			Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
			if (authentication != null && authentication.isAuthenticated() && !TRUST.isAnonymous(authentication)) {
				attempt.markAuthenticated();
				if (!verdictReadDownstream) {
					// no limiter follows to refuse the request
					attempt.limiterDecided(true);
				}
			}
			else {
				attempt.markPassedUnauthenticated();
			}
			if (!verdictReadDownstream && PendingVerdict.refused(request)) {
				return;
			}
		}
		chain.doFilter(request, response);
	}

}
