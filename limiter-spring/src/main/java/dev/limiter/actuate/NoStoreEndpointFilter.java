package dev.limiter.actuate;

import java.io.IOException;
import java.util.function.Supplier;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Marks every response of the {@code limiter} endpoint {@code no-store} for browsers and
 * CDNs, its 400s included: they describe one caller's counters at one instant. An
 * endpoint operation cannot set headers itself, so they are set before the endpoint runs.
 *
 * <p>
 * A plain filter, registered for the request dispatch only: it runs on every request of
 * the application, and setting two headers again would be harmless, so it does without
 * the request attributes a {@code OncePerRequestFilter} sets and removes each time.
 */
public class NoStoreEndpointFilter implements Filter {

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
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		String path = path();
		if (path != null && request instanceof HttpServletRequest http
				&& response instanceof HttpServletResponse httpResponse && isBelow(http, path)) {
			httpResponse.setHeader("Cache-Control", "no-store");
			httpResponse.setHeader("CDN-Cache-Control", "no-store");
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
