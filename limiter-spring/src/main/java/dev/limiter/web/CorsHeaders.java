package dev.limiter.web;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.cors.DefaultCorsProcessor;

/**
 * What a browser on another origin needs to read the limiter's answers
 * (docs/http-contract.md, "Browsers and CORS"): on every response the limiter writes
 * itself, the CORS headers the application's own configuration gives the request, and on
 * every response whose origin the application allows, the limiter's headers in
 * {@code Access-Control-Expose-Headers}. Nothing is added for an origin the configuration
 * does not allow, and a preflight is never answered here.
 */
public final class CorsHeaders {

	private static final Log logger = LogFactory.getLog(CorsHeaders.class);

	/**
	 * The headers the limiter writes that a script may read once exposed (CORS lets it
	 * read only a few by default).
	 */
	public static final List<String> EXPOSED = RateLimitHeader.names();

	/**
	 * No configuration of the application's: only the exposing of the limiter's headers.
	 */
	public static final CorsHeaders NONE = new CorsHeaders(List::of);

	private final Supplier<List<CorsConfigurationSource>> sources;

	private final DefaultCorsProcessor processor = new NonRejectingCorsProcessor();

	/**
	 * @param sources the application's configurations, asked in order until one has a
	 * configuration for the request; looked up once, on first use
	 */
	public CorsHeaders(Supplier<List<CorsConfigurationSource>> sources) {
		this.sources = SingletonSupplier.of(Objects.requireNonNull(sources, "sources"));
	}

	/**
	 * Adds, to a response the limiter writes itself before its body, the CORS headers the
	 * application's configuration gives this request, unless a filter before (Spring
	 * Security's {@code CorsFilter}) already set them; then exposes the limiter's headers
	 * if the origin is allowed. A configuration that fails is logged and leaves the
	 * response as it is.
	 */
	public void applyTo(HttpServletRequest request, HttpServletResponse response) {
		if (CorsUtils.isCorsRequest(request) && !CorsUtils.isPreFlightRequest(request)) {
			try {
				CorsConfiguration configuration = configurationFor(request);
				if (configuration != null) {
					processor.processRequest(configuration, request, response);
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.warn("CORS configuration of the application failed; the limiter's response goes out without "
						+ "CORS headers: " + ex);
			}
		}
		expose(response);
	}

	private CorsConfiguration configurationFor(HttpServletRequest request) {
		for (CorsConfigurationSource source : sources.get()) {
			CorsConfiguration configuration = source.getCorsConfiguration(request);
			if (configuration != null) {
				return configuration;
			}
		}
		return null;
	}

	/**
	 * Adds the limiter's headers to {@code Access-Control-Expose-Headers} when the
	 * response allows an origin, after what the application exposes, each name once.
	 */
	public static void expose(HttpServletResponse response) {
		if (response.getHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN) == null) {
			return;
		}
		response.setHeader(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS,
				ExposedHeaders.value(response.getHeaders(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS)));
	}

	/**
	 * Spring's processor, except that an origin or method the configuration refuses
	 * leaves the limiter's response alone (no CORS headers) instead of turning it into a
	 * 403.
	 */
	private static final class NonRejectingCorsProcessor extends DefaultCorsProcessor {

		@Override
		protected void rejectRequest(ServerHttpResponse response) {
		}

	}

}
