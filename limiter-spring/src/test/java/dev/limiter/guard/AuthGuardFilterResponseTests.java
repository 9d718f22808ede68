package dev.limiter.guard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.limiter.core.RateLimitStores;
import dev.limiter.core.StoreModeListener;
import dev.limiter.core.contract.DownRateLimitStore;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.resilience.FailOpenRateLimitStore;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard's 429 is whole before it commits: every header it means to send is set before
 * the body.
 */
class AuthGuardFilterResponseTests {

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	@Test
	void refusalWhenDecidedByTheFallbackShouldSendTheDegradedHeader() throws Exception {
		FailOpenRateLimitStore store = new FailOpenRateLimitStore(new DownRateLimitStore("down"), 1_000, b -> false,
				5_000, StoreModeListener.NONE);
		AuthGuard guard = new AuthGuard(store,
				new AuthGuardPolicy(1, Duration.ofMinutes(15), Duration.ofMinutes(30), 10, Duration.ofSeconds(30)));
		AuthGuardFilter filter = new AuthGuardFilter(guard, Clock.fixed(NOW, ZoneOffset.UTC));

		filter.doFilter(request(), new MockHttpServletResponse(),
				(req, res) -> ((HttpServletResponse) res).setStatus(401));
		ContainerLikeResponse refused = new ContainerLikeResponse();
		filter.doFilter(request(), refused, (req, res) -> ((HttpServletResponse) res).setStatus(200));

		assertThat(refused.getStatus()).isEqualTo(429);
		assertThat(refused.getHeader("X-RateLimit-Degraded")).isEqualTo("true");
	}

	/**
	 * The bytes the reactive guard writes too ({@code ReactiveAuthGuardFilterTests} holds
	 * the same literal).
	 */
	@Test
	void refusalWhenTheAddressIsBlockedShouldWriteTheGuardsProblem() throws Exception {
		Instant midnight = Instant.parse("2030-01-01T00:00:00Z");
		AuthGuard guard = new AuthGuard(RateLimitStores.inMemory(1_000),
				new AuthGuardPolicy(3, Duration.ofMinutes(1), Duration.ofMinutes(10), 5, Duration.ofSeconds(30)));
		AuthGuardFilter filter = new AuthGuardFilter(guard, Clock.fixed(midnight, ZoneOffset.UTC));
		for (int i = 0; i < 3; i++) {
			filter.doFilter(request(), new MockHttpServletResponse(),
					(req, res) -> ((HttpServletResponse) res).setStatus(401));
		}

		MockHttpServletResponse refused = new MockHttpServletResponse();
		filter.doFilter(request(), refused, (req, res) -> ((HttpServletResponse) res).setStatus(200));

		assertThat(refused.getStatus()).isEqualTo(429);
		assertThat(refused.getHeader("Retry-After")).isEqualTo("600");
		assertThat(refused.getContentType()).isEqualTo("application/problem+json;charset=UTF-8");
		assertThat(refused.getContentAsString()).isEqualTo("{\"type\":\"about:blank\","
				+ "\"title\":\"Too Many Requests\",\"status\":429,\"detail\":\"Too many failed authentications from this "
				+ "address; retry after 600 seconds.\",\"error\":\"auth_rate_limit_exceeded\",\"message\":\"Too many "
				+ "failed authentications from this address; retry after 600 seconds.\",\"retryAfter\":600,"
				+ "\"bound\":\"block\",\"resetTime\":\"2030-01-01T00:10:00Z\"}");
	}

	private static MockHttpServletRequest request() {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/private");
		request.setRemoteAddr("203.0.113.9");
		request.addHeader("Authorization", "Bearer wrong");
		return request;
	}

	/** Like a servlet container, drops a header set after the response was committed. */
	static final class ContainerLikeResponse extends MockHttpServletResponse {

		@Override
		public void setHeader(String name, String value) {
			if (!isCommitted()) {
				super.setHeader(name, value);
			}
		}

		@Override
		public void addHeader(String name, String value) {
			if (!isCommitted()) {
				super.addHeader(name, value);
			}
		}

	}

}
