package dev.limiter.servlet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RateLimitStores;
import dev.limiter.quota.QuotaReport;
import dev.limiter.routes.RouteInventory;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The quota endpoint over a store that cannot read its counters (one without the
 * fail-open wrapper): a 503 with the contract's problem body, never a 500.
 */
class QuotaEndpointFilterStoreFailureTests {

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	private final Budget standard = Budget.builder("standard").window("minute", 10, Duration.ofMinutes(1)).build();

	private final RateLimitStore unreadable = new ForwardingRateLimitStore() {

		private final RateLimitStore delegate = RateLimitStores.inMemory(100);

		@Override
		protected RateLimitStore delegate() {
			return delegate;
		}

		@Override
		public KeyState peek(Budget budget, String key, long nowMillis) {
			throw new RateLimitStoreException("connection reset");
		}

	};

	@Test
	void quotaWhenTheStoreCannotReadCountersShouldAnswer503WithAProblemBody() throws Exception {
		Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
		QuotaReport report = new QuotaReport(
				() -> new RateLimitRules(new BudgetRegistry(List.of(standard), "standard", "standard"),
						new BudgetOptions(false, Map.of(), Map.of()), (request) -> RoutePolicy.DEFAULT),
				unreadable, () -> new RouteInventory(List.of(), List.of()), clock);
		QuotaEndpointFilter filter = new QuotaEndpointFilter("/rate-limit", report,
				(request) -> CallerKey.authenticated("p:alice", () -> "alice"), unreadable,
				new DefaultRateLimitResponseWriter(true, true), clock, 60);
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/rate-limit");
		MockHttpServletResponse response = new MockHttpServletResponse();

		filter.doFilter(request, response, new MockFilterChain());

		assertThat(response.getStatus()).isEqualTo(503);
		assertThat(response.getContentType()).startsWith("application/problem+json");
		assertThat(response.getHeader("Retry-After")).isNotNull();
	}

}
