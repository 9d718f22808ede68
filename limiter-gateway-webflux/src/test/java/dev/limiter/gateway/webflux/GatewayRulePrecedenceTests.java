package dev.limiter.gateway.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.limiter.routes.CurrentRouteInventory;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteSource;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code limiter.routes} rule and a gateway route's {@code Limiter} filter that match
 * the same request: the route's own filter (the more specific statement, made on that
 * route) counts it, as on the Web MVC server; a route without the filter is counted by
 * the rule. Rule {@code /limited/**} and rule {@code /plain/**} both name budget
 * {@code wide} (50 a minute); route {@code limited} carries {@code Limiter=tight} (3 a
 * minute), route {@code plain} no filter.
 */
@ExtendWith(BlockHoundExtension.class)
class GatewayRulePrecedenceTests {

	private static CountingBackend backend;

	private static ConfigurableApplicationContext gateway;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String token = "tok-" + UUID.randomUUID();

	@BeforeAll
	static void startTheBackendAndTheGateway() throws Exception {
		backend = CountingBackend.start();
		List<String> properties = new ArrayList<>(List.of("limiter.budgets.tight.windows.minute.limit=3",
				"limiter.budgets.tight.windows.minute.duration=1m", "limiter.budgets.wide.windows.minute.limit=50",
				"limiter.budgets.wide.windows.minute.duration=1m", "limiter.routes[0].pattern=/limited/**",
				"limiter.routes[0].budget=wide", "limiter.routes[1].pattern=/plain/**",
				"limiter.routes[1].budget=wide"));
		properties.addAll(GatewayApplication.route(0, "limited", backend.uri(), "[0]=Limiter=tight"));
		properties.addAll(GatewayApplication.route(1, "plain", backend.uri()));
		gateway = GatewayApplication.run(properties);
	}

	@AfterAll
	static void stopEverything() {
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
			HttpResponse<String> admitted = get("/limited/items");
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(admitted.headers().firstValue("X-RateLimit-Limit")).as("the filter's budget, tight")
				.hasValue("3");
		}
		HttpResponse<String> refused = get("/limited/items");

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"budget\":\"tight\"");
	}

	@Test
	void routeWithoutLimiterWhenARuleMatchesItsPathShouldBeCountedOnTheRulesBudget() throws Exception {
		HttpResponse<String> response = get("/plain/items");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-RateLimit-Limit")).as("the rule's budget, wide").hasValue("50");
	}

	@Test
	void inventoryShouldListTheLimiterRouteOnItsFiltersBudgetAndTheOtherOnTheRules() {
		List<RouteInventory.Entry> entries = gateway.getBean(CurrentRouteInventory.class).inventory().entries();

		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route limited"))
			.singleElement()
			.satisfies((entry) -> {
				assertThat(entry.budget()).isEqualTo("tight");
				assertThat(entry.source()).isEqualTo(RouteSource.ROUTE_FILTER);
			});
		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route plain"))
			.singleElement()
			.satisfies((entry) -> assertThat(entry.budget()).isEqualTo("wide"));
	}

	private HttpResponse<String> get(String path) throws Exception {
		return http
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + GatewayApplication.port(gateway) + path))
				.header("Authorization", "Bearer " + token)
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

}
