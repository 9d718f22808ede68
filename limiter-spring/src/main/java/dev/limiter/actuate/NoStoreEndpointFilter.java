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
	 * {@code endpointPath} gives the endpoint's path below the context path, such as
	 * {@code /actuator/limiter}.
	 */
	public NoStoreEndpointFilter(Supplier<String> endpointPath) {
		this.endpointPath = endpointPath;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String path = endpointPath.get();
		String uri = request.getRequestURI().substring(request.getContextPath().length());
		if (path != null && (uri.equals(path) || uri.startsWith(path + "/"))) {
			response.setHeader("Cache-Control", "no-store");
			response.setHeader("CDN-Cache-Control", "no-store");
		}
		chain.doFilter(request, response);
	}

}
