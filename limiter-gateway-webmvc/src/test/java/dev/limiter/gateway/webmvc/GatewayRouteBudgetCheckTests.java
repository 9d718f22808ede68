package dev.limiter.gateway.webmvc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A {@code Limiter} filter naming a budget that does not exist stops start-up, naming the
 * route and the known budgets, rather than counting the route on another budget.
 */
class GatewayRouteBudgetCheckTests {

	@Test
	void limiterFilterWhenItNamesAnUnknownBudgetShouldStopStartUpNamingTheRoute() throws Exception {
		try (Backend backend = Backend.start()) {
			String route = "spring.cloud.gateway.server.webmvc.routes[4]";
			assertThatThrownBy(() -> Gateways
				.start(backend, route + ".id=typo", route + ".uri=" + backend.uri(),
						route + ".predicates[0]=Path=/typo/**", route + ".filters[0]=Limiter=platinum")
				.close()).hasStackTraceContaining("gateway route typo names an unknown budget 'platinum'")
				.hasStackTraceContaining("known budgets are");
		}
	}

}
