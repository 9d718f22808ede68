package dev.limiter.guard;

import java.io.IOException;

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
 * positive evidence the guard needs before it clears failures; a status code alone is not
 * (a path that ignores security answers 200 to any header). Either way the lookup is over
 * here, so the attempt is settled before the handler runs.
 */
public class AuthenticationOutcomeFilter extends OncePerRequestFilter {

	private static final AuthenticationTrustResolver TRUST = new AuthenticationTrustResolverImpl();

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getAttribute(AuthGuardFilter.ATTEMPT_ATTRIBUTE) instanceof LookupAttempt attempt) {
			Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
			if (authentication != null && authentication.isAuthenticated() && !TRUST.isAnonymous(authentication)) {
				attempt.markAuthenticated();
			}
			else {
				attempt.markPassedUnauthenticated();
			}
		}
		chain.doFilter(request, response);
	}

}
