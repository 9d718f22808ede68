package dev.limiter.web;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;

import static org.assertj.core.api.Assertions.assertThat;

class CorsHeadersTests {

	private static final String ALLOWED = "http://app.example";

	private static final String EXPOSED_LIST = "Retry-After, RateLimit, RateLimit-Policy, X-RateLimit-Limit, "
			+ "X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Window, X-RateLimit-Degraded, X-RateLimit-Shadow";

	private final CorsHeaders cors = new CorsHeaders(() -> List.of(source("/api/**")));

	@Test
	void applyToWhenTheOriginIsAllowedShouldAddTheConfigurationsHeadersAndExposeTheLimiters() {
		MockHttpServletResponse response = new MockHttpServletResponse();

		cors.applyTo(request("/api/x", ALLOWED), response);

		assertThat(response.getHeader("Access-Control-Allow-Origin")).isEqualTo(ALLOWED);
		assertThat(response.getHeader("Access-Control-Expose-Headers")).isEqualTo("X-App-Trace, " + EXPOSED_LIST);
		assertThat(response.getHeaders("Vary")).contains("Origin");
	}

	@Test
	void applyToWhenTheOriginIsNotAllowedShouldLeaveTheResponseWithoutCorsHeadersAndItsStatus() throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.setStatus(429);

		cors.applyTo(request("/api/x", "http://elsewhere.example"), response);

		assertThat(response.getStatus()).isEqualTo(429);
		assertThat(response.getHeader("Access-Control-Allow-Origin")).isNull();
		assertThat(response.getHeader("Access-Control-Expose-Headers")).isNull();
		assertThat(response.getContentAsString()).isEmpty();
	}

	@Test
	void applyToWhenNoConfigurationCoversThePathShouldAddNoCorsHeaders() {
		MockHttpServletResponse response = new MockHttpServletResponse();

		cors.applyTo(request("/other", ALLOWED), response);

		assertThat(response.getHeader("Access-Control-Allow-Origin")).isNull();
		assertThat(response.getHeader("Access-Control-Expose-Headers")).isNull();
	}

	@Test
	void applyToWhenAFilterAlreadySetTheHeadersShouldKeepThemAndExposeEachNameOnce() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.setHeader("Access-Control-Allow-Origin", "*");
		response.setHeader("Access-Control-Expose-Headers", "X-Own, retry-after");

		cors.applyTo(request("/api/x", ALLOWED), response);

		assertThat(response.getHeaders("Access-Control-Allow-Origin")).containsExactly("*");
		assertThat(response.getHeader("Access-Control-Expose-Headers"))
			.isEqualTo("X-Own, retry-after, " + EXPOSED_LIST.substring("Retry-After, ".length()));
	}

	@Test
	void applyToWhenSeveralSourcesShouldTakeTheFirstThatHasAConfiguration() {
		CorsConfigurationSource none = request -> null;
		CorsHeaders ordered = new CorsHeaders(() -> List.of(none, source("/api/**"), source("/**")));
		MockHttpServletResponse response = new MockHttpServletResponse();

		ordered.applyTo(request("/api/x", ALLOWED), response);

		assertThat(response.getHeader("Access-Control-Allow-Origin")).isEqualTo(ALLOWED);
	}

	@Test
	void applyToWhenTheSourceFailsShouldLeaveTheResponseAlone() {
		CorsHeaders failing = new CorsHeaders(() -> List.of(request -> {
			throw new IllegalStateException("broken configuration");
		}));
		MockHttpServletResponse response = new MockHttpServletResponse();

		failing.applyTo(request("/api/x", ALLOWED), response);

		assertThat(response.getHeader("Access-Control-Allow-Origin")).isNull();
	}

	@Test
	void applyToWhenAPreflightShouldAddNothing() {
		MockHttpServletRequest preflight = request("/api/x", ALLOWED);
		preflight.setMethod("OPTIONS");
		preflight.addHeader("Access-Control-Request-Method", "GET");
		MockHttpServletResponse response = new MockHttpServletResponse();

		cors.applyTo(preflight, response);

		assertThat(response.getHeaderNames()).isEmpty();
	}

	@Test
	void exposeWhenTheResponseAllowsNoOriginShouldAddNothing() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.setHeader("Retry-After", "3");

		CorsHeaders.expose(response);

		assertThat(response.getHeader("Access-Control-Expose-Headers")).isNull();
	}

	private static MockHttpServletRequest request(String path, String origin) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", path);
		request.setServerName("api.example");
		request.addHeader("Origin", origin);
		return request;
	}

	private static CorsConfigurationSource source(String pattern) {
		CorsConfiguration configuration = new CorsConfiguration();
		configuration.setAllowedOrigins(List.of(ALLOWED));
		configuration.setAllowedMethods(List.of("GET"));
		configuration.setExposedHeaders(List.of("X-App-Trace"));
		UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
		source.registerCorsConfiguration(pattern, configuration);
		return source;
	}

}
