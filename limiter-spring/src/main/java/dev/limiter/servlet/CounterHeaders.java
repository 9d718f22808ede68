package dev.limiter.servlet;

import dev.limiter.core.Decision;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.web.CorsHeaders;
import dev.limiter.web.RateLimitHeader;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The counters an admitted response carries, written just before it commits: never on a
 * response a shared cache may store (they are one caller's, {@link SharedCacheability}),
 * and never at the cost of the application's answer (a writer that throws is logged, and
 * the response goes out whole).
 */
final class CounterHeaders {

	private static final Log logger = LogFactory.getLog(RateLimitFilter.class);

	private final RateLimitResponseWriter responseWriter;

	CounterHeaders(RateLimitResponseWriter responseWriter) {
		this.responseWriter = responseWriter;
	}

	void write(HttpServletRequest request, HttpServletResponse response, Decision decision, boolean shadowRefused) {
		if (SharedCacheability.isSharedCacheable(request, response)) {
			return;
		}
		try {
			responseWriter.writeCounters(response, decision);
		}
		catch (RuntimeException ex) {
			// the application's response is whole without counters; a 500 over it would
			// be worse
			logger.warn("RateLimitResponseWriter " + responseWriter.getClass().getName()
					+ " failed to write the counters: " + ex);
		}
		if (shadowRefused) {
			response.setHeader(RateLimitHeader.SHADOW.headerName(), RateLimitHeader.SHADOW_VALUE);
		}
		// readable by a script of an origin the application allows
		CorsHeaders.expose(response);
	}

}
