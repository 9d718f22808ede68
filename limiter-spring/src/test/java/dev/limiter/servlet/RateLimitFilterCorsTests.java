package dev.limiter.servlet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.core.contract.DownRateLimitStore;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.web.CorsHeaders;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.cors.CorsConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter's 503 carries the application's CORS headers, and a preflight reaches no
 * store at all.
 */
class RateLimitFilterCorsTests {

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	private static final String ALLOWED = "http://app.example";

	private static final Budget CLOSED = Budget.builder("closed").window("minute", 600, Duration.ofMinutes(1)).build();

	private final RateLimitFilter filter = RateLimitFilter
		.builder(
				new RateLimitRules(new BudgetRegistry(List.of(CLOSED), "closed", "closed"), BudgetOptions.DEFAULTS,
						request -> RoutePolicy.DEFAULT),
				new DownRateLimitStore("closed", new StoreUnavailableException("closed", 5_000, null)),
				request -> CallerKey.anonymous("a:127.0.0.1"), new DefaultRateLimitResponseWriter(true, true))
		.clock(Clock.fixed(NOW, ZoneOffset.UTC))
		.cors(new CorsHeaders(() -> List.of(request -> allowed())))
		.build();

	@Test
	void unavailableWhenTheOriginIsAllowedShouldCarryTheCorsHeadersAndExposeRetryAfter() throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/page");
		request.addHeader("Origin", ALLOWED);
		MockHttpServletResponse response = new MockHttpServletResponse();

		filter.doFilter(request, response, (req, res) -> {
			throw new AssertionError("the handler must not run");
		});

		assertThat(response.getStatus()).isEqualTo(503);
		assertThat(response.getHeader("Access-Control-Allow-Origin")).isEqualTo(ALLOWED);
		assertThat(response.getHeader("Access-Control-Expose-Headers")).contains("Retry-After");
		assertThat(response.getHeader("Retry-After")).isEqualTo("5");
	}

	@Test
	void preflightWhenTheStoreCannotAnswerShouldPassOnUncountedAndUnrefused() throws Exception {
		MockHttpServletRequest preflight = new MockHttpServletRequest("OPTIONS", "/page");
		preflight.addHeader("Origin", ALLOWED);
		preflight.addHeader("Access-Control-Request-Method", "GET");
		MockHttpServletResponse response = new MockHttpServletResponse();
		boolean[] passedOn = new boolean[1];

		filter.doFilter(preflight, response, (req, res) -> passedOn[0] = true);

		assertThat(passedOn[0]).isTrue();
		assertThat(response.getStatus()).isEqualTo(200);
	}

	private static CorsConfiguration allowed() {
		CorsConfiguration configuration = new CorsConfiguration();
		configuration.setAllowedOrigins(List.of(ALLOWED));
		configuration.setAllowedMethods(List.of("GET"));
		return configuration;
	}

}
