package dev.limiter.gateway.webmvc;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.routes.RouteSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code limiter.routes} rule and a gateway route's {@code Limiter} filter that match
 * the same request: the route's own filter (the more specific statement, made on that
 * route) counts it, as on the WebFlux server; a route without the filter is counted by
 * the rule. Rule {@code /limited/**} and rule {@code /open/**} both name budget
 * {@code wide} (50 a minute); route {@code limited} carries {@code Limiter=tight} (3 a
 * minute), route {@code open} no filter.
 */
class GatewayRulePrecedenceTests {

	private static Backend backend;

	private static ConfigurableApplicationContext gateway;

	private final String caller = UUID.randomUUID().toString();

	@BeforeAll
	static void start() throws Exception {
		backend = Backend.start();
		gateway = Gateways.start(backend, "limiter.budgets.wide.windows.minute.limit=50",
				"limiter.budgets.wide.windows.minute.duration=1m", "limiter.routes[0].pattern=/limited/**",
				"limiter.routes[0].budget=wide", "limiter.routes[1].pattern=/open/**", "limiter.routes[1].budget=wide");
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
		if (backend != null) {
			backend.close();
		}
	}

	@Test
	void limiterRouteWhenARuleMatchesItsPathShouldBeCountedOnItsOwnBudget() throws Exception {
		for (int i = 1; i <= 3; i++) {
			HttpResponse<String> admitted = Gateways.get(gateway, "/limited/items", caller);
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(Gateways.header(admitted, "X-RateLimit-Limit")).as("the filter's budget, tight").isEqualTo("3");
		}
		HttpResponse<String> refused = Gateways.get(gateway, "/limited/items", caller);

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"budget\":\"tight\"");
	}

	@Test
	void routeWithoutLimiterWhenARuleMatchesItsPathShouldBeCountedOnTheRulesBudget() throws Exception {
		HttpResponse<String> response = Gateways.get(gateway, "/open/items", caller);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Gateways.header(response, "X-RateLimit-Limit")).as("the rule's budget, wide").isEqualTo("50");
	}

	@Test
	void inventoryShouldListTheLimiterRouteOnItsFiltersBudgetAndTheOtherOnTheRules() {
		List<RouteInventory.Entry> entries = gateway.getBean(RouteInventoryCheck.class).inventory().entries();

		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route limited"))
			.singleElement()
			.satisfies((entry) -> {
				assertThat(entry.budget()).isEqualTo("tight");
				assertThat(entry.source()).isEqualTo(RouteSource.ROUTE_FILTER);
			});
		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route open"))
			.singleElement()
			.satisfies((entry) -> assertThat(entry.budget()).isEqualTo("wide"));
	}

}
