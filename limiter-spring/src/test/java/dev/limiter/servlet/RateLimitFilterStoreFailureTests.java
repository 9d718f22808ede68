package dev.limiter.servlet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.contract.DownRateLimitStore;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store without a fail-open wrapper that fails: the request is admitted uncounted
 * through an explicit decision (the failure policy's last resort), reported and marked
 * degraded like any other, never a 500.
 */
class RateLimitFilterStoreFailureTests {

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	private static final Budget STANDARD = Budget.builder("standard")
		.window("minute", 600, Duration.ofMinutes(1))
		.build();

	private final List<Decision> decisions = new CopyOnWriteArrayList<>();

	@Test
	void requestWhenTheUnwrappedStoreFailsShouldBeAdmittedWithAnUncountedDecision() throws Exception {
		BudgetRegistry budgets = new BudgetRegistry(List.of(STANDARD), "standard", "standard");
		RateLimitObserver observer = new RateLimitObserver() {
			@Override
			public void onDecision(RoutePolicy route, Decision decision, RateLimitOutcome outcome, long storeNanos) {
				decisions.add(decision);
			}
		};
		RateLimitFilter filter = RateLimitFilter
			.builder(new RateLimitRules(budgets, BudgetOptions.DEFAULTS, request -> RoutePolicy.DEFAULT),
					new DownRateLimitStore("custom"), request -> CallerKey.anonymous("a:127.0.0.1"),
					new DefaultRateLimitResponseWriter(true, false))
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.observers(List.of(observer))
			.build();
		MockHttpServletResponse response = new MockHttpServletResponse();
		boolean[] handled = new boolean[1];

		filter.doFilter(new MockHttpServletRequest("GET", "/page"), response, (req, res) -> handled[0] = true);

		assertThat(handled[0]).isTrue();
		assertThat(response.getStatus()).isEqualTo(200);
		assertThat(response.getHeader("X-RateLimit-Degraded")).isEqualTo("true");
		assertThat(decisions).singleElement().satisfies(decision -> {
			assertThat(decision.allowed()).isTrue();
			assertThat(decision.counted()).isFalse();
			assertThat(decision.degraded()).isTrue();
		});
	}

}
