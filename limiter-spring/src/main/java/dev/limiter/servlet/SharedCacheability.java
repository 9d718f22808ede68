package dev.limiter.servlet;

import java.util.Collection;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@link dev.limiter.decision.SharedCacheability} read from a servlet request and
 * response.
 */
final class SharedCacheability {

	static final int ANY = dev.limiter.decision.SharedCacheability.ANY;

	static final int PUBLIC = dev.limiter.decision.SharedCacheability.PUBLIC;

	static final int S_MAXAGE = dev.limiter.decision.SharedCacheability.S_MAXAGE;

	static final int MAX_AGE = dev.limiter.decision.SharedCacheability.MAX_AGE;

	private SharedCacheability() {
	}

	static boolean isSharedCacheable(HttpServletRequest request, HttpServletResponse response) {
		return dev.limiter.decision.SharedCacheability.isSharedCacheable(request.getHeader("Authorization") != null,
				(name) -> headers(response, name));
	}

	static int directives(HttpServletResponse response, String header) {
		return dev.limiter.decision.SharedCacheability.directives((name) -> headers(response, name), header);
	}

	private static Collection<String> headers(HttpServletResponse response, String name) {
		return (response.getHeader(name) != null) ? response.getHeaders(name) : List.of();
	}

}
