package dev.limiter.sample;

import java.io.IOException;
import java.util.Locale;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer sp_...}. A request without the header passes
 * on unauthenticated; one with a malformed or unknown token is answered 401 here, before
 * it can reach the limiter.
 */
class BearerTokenFilter extends OncePerRequestFilter {

	private final TokenService tokens;

	BearerTokenFilter(TokenService tokens) {
		this.tokens = tokens;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return request.getHeader("Authorization") == null;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String header = request.getHeader("Authorization");
		Optional<TokenService.TokenHolder> holder = Optional.empty();
		if (header.length() > 7 && header.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
			holder = tokens.authenticate(header.substring(7).trim());
		}
		if (holder.isEmpty()) {
			Problems.unauthorized(response, "invalid_token", "The bearer token is malformed, unknown or revoked.");
			return;
		}
		TokenService.TokenHolder found = holder.get();
		SecurityContextHolder.getContext()
			.setAuthentication(found.trial() ? new TrialTokenAuthentication(found) : new TokenAuthentication(found));
		chain.doFilter(request, response);
	}

}
