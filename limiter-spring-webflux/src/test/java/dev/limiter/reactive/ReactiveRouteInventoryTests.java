package dev.limiter.reactive;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.routes.HandlerPolicies;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.routes.PropertiesRouteResolver.RouteRule;
import dev.limiter.routes.RouteInventory;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The reactive route inventory's {@code RouterFunction} routes, read from WebFlux's
 * {@link RouterFunctionMapping} without a Spring context: nested prefixes joined, methods
 * listed, a predicate it cannot read standing for everything under its prefix, and a
 * {@code limiter.routes} rule that covers them applied and kept alive.
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveRouteInventoryTests {

	private static final Budget STANDARD = Budget.builder("standard")
		.window("minute", 10, Duration.ofMinutes(1))
		.build();

	private static final Budget FUNCTIONAL = Budget.builder("functional")
		.window("minute", 3, Duration.ofMinutes(1))
		.build();

	private static final BudgetRegistry BUDGETS = new BudgetRegistry(List.of(STANDARD, FUNCTIONAL), "standard",
			"standard");

	private static final HandlerFunction<ServerResponse> OK = (request) -> ServerResponse.ok().build();

	@Test
	void inventoryWhenRoutesAreNestedShouldListEachPathWithItsPrefixAndMethods() {
		RouterFunction<ServerResponse> routes = RouterFunctions.nest(RequestPredicates.path("/api"),
				RouterFunctions.route().GET("/items", OK).POST("/items/{id}", OK).build());

		RouteInventory inventory = inventory(routes, List.of());

		assertThat(inventory.entries())
			.extracting(RouteInventory.Entry::pattern, RouteInventory.Entry::methods, RouteInventory.Entry::budget)
			.containsExactlyInAnyOrder(tuple("/api/items", List.of("GET"), "standard"),
					tuple("/api/items/{id}", List.of("POST"), "standard"));
	}

	@Test
	void inventoryWhenAPredicateIsAnAlternativeShouldStandForEverythingUnderItsPrefix() {
		RouterFunction<ServerResponse> routes = RouterFunctions.nest(RequestPredicates.path("/api"),
				RouterFunctions.route(RequestPredicates.path("/a").or(RequestPredicates.path("/b")), OK));

		RouteInventory inventory = inventory(routes, List.of());

		assertThat(inventory.entries()).extracting(RouteInventory.Entry::pattern).containsExactly("/api/**");
	}

	@Test
	void inventoryWhenARuleCoversAFunctionalRouteShouldApplyItsBudgetAndKeepTheRuleAlive() {
		RouterFunction<ServerResponse> routes = RouterFunctions.route().GET("/functional/items", OK).build();
		RouteRule rule = new RouteRule("/functional/**", List.of(),
				new RoutePolicy("/functional/**", "functional", false, false, null));

		RouteInventory inventory = inventory(routes, List.of(rule));

		assertThat(inventory.entries()).singleElement().satisfies((entry) -> {
			assertThat(entry.pattern()).isEqualTo("/functional/items");
			assertThat(entry.budget()).isEqualTo("functional");
		});
		assertThat(inventory.deadRules()).isEmpty();
	}

	private static RouteInventory inventory(RouterFunction<?> routes, List<RouteRule> rules) {
		RateLimitRules current = new RateLimitRules(BUDGETS, new BudgetOptions(false, Map.of(), Map.of()),
				new PropertiesRouteResolver(rules));
		return new ReactiveRouteInventory(() -> current, new HandlerPolicies(BUDGETS, false),
				() -> List.of(new RouterFunctionMapping(routes)), List.of())
			.inventory();
	}

}
