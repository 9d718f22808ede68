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
 * CDNs on a servlet application ({@link NoStoreEndpoint} says which).
 *
 * <p>
 * A plain filter, registered for the request dispatch only: it runs on every request of
 * the application, and setting two headers again would be harmless, so it does without
 * the request attributes a {@code OncePerRequestFilter} sets and removes each time.
 */
public class NoStoreEndpointFilter implements Filter {

	private final NoStoreEndpoint endpoint;

	/**
	 * {@code endpointPath} gives the endpoint's path below the context path, such as
	 * {@code /actuator/limiter}.
	 */
	public NoStoreEndpointFilter(Supplier<String> endpointPath) {
		this(new NoStoreEndpoint(endpointPath));
	}

	public NoStoreEndpointFilter(NoStoreEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (request instanceof HttpServletRequest http && response instanceof HttpServletResponse httpResponse
				&& endpoint.covers(http.getRequestURI(), http.getContextPath().length())) {
			NoStoreEndpoint.markNoStore(httpResponse::setHeader);
		}
		chain.doFilter(request, response);
	}

}
