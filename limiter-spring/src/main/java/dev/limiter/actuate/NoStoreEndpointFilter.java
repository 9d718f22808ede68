package dev.limiter.actuate;

import java.io.IOException;
import java.util.function.Supplier;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Marks every response of the {@code limiter} endpoint {@code no-store} for browsers and
 * CDNs, its 400s included: they describe one caller's counters at one instant. An
 * endpoint operation cannot set headers itself, so they are set before the endpoint runs.
 */
public class NoStoreEndpointFilter extends OncePerRequestFilter {

	private final Supplier<String> endpointPath;

	/**
	 * The path once known: endpoints are mapped once, and asking for the mapping on every
	 * request showed up in the request path's CPU profile.
	 */
	private volatile String resolvedPath;

	/**
	 * {@code endpointPath} gives the endpoint's path below the context path, such as
	 * {@code /actuator/limiter}.
	 */
	public NoStoreEndpointFilter(Supplier<String> endpointPath) {
		this.endpointPath = endpointPath;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String path = path();
		if (path != null && isBelow(request, path)) {
			response.setHeader("Cache-Control", "no-store");
			response.setHeader("CDN-Cache-Control", "no-store");
		}
		chain.doFilter(request, response);
	}

	private String path() {
		String path = resolvedPath;
		if (path == null) {
			path = endpointPath.get();
			resolvedPath = path;
		}
		return path;
	}

	/** The request's path is {@code path} or below it, without copying the URI. */
	private static boolean isBelow(HttpServletRequest request, String path) {
		String uri = request.getRequestURI();
		int start = request.getContextPath().length();
		int end = start + path.length();
		return uri.startsWith(path, start) && (uri.length() == end || uri.charAt(end) == '/');
	}

}
