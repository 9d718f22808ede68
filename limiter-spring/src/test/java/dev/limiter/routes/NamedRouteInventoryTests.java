package dev.limiter.routes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.limiter.core.Budget;
import dev.limiter.spring.BudgetRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Functional routes visited under a {@link NamedRoute} (a gateway route) are listed by
 * its name, on the budget it carries ({@code route filter}), or on the default budget
 * without one; a budget that does not exist is a problem, and the routes after it are the
 * application's own again.
 */
class NamedRouteInventoryTests {

	private static final HandlerFunction<ServerResponse> OK = (request) -> ServerResponse.ok().build();

	private final BudgetRegistry budgets = new BudgetRegistry(
			List.of(budget("standard"), budget("anonymous"), budget("gold")), "standard", "anonymous");

	@Test
	void inventoryWhenRoutesAreNamedShouldListThemByNameOnTheirOwnBudget() {
		List<String> problems = new ArrayList<>();
		RouterFunction<ServerResponse> routes = named("api", "gold", "/api/**").and(named("open", null, "/open/**"))
			.and(RouterFunctions.route(RequestPredicates.GET("/plain"), OK));

		RouteInventory inventory = inventory(routes, problems);

		assertThat(problems).isEmpty();
		assertThat(inventory.entries())
			.extracting((entry) -> entry.pattern() + " " + entry.handler() + " " + entry.budget() + " "
					+ entry.source().label())
			.containsExactly("/api/** gateway route api gold route filter",
					"/open/** gateway route open standard default", "/plain route (GET && /plain) standard default");
	}

	@Test
	void inventoryWhenANamedRouteNamesAnUnknownBudgetShouldReportIt() {
		List<String> problems = new ArrayList<>();

		inventory(named("typo", "platinum", "/typo/**"), problems);

		assertThat(problems).singleElement()
			.asString()
			.contains("gateway route typo names an unknown budget 'platinum'")
			.contains("[standard, anonymous, gold]");
	}

	private RouteInventory inventory(RouterFunction<ServerResponse> routes, List<String> problems) {
		RouteInventoryBuilder builder = new RouteInventoryBuilder(List.of(), new HandlerPolicies(budgets), budgets);
		MvcRoutes.addRouterFunctions(builder, new RouterFunctionMapping(routes), problems);
		return builder.build();
	}

	private static Budget budget(String name) {
		return Budget.builder(name).window("minute", 10, Duration.ofMinutes(1)).build();
	}

	/** A route named as a gateway names its routes for the limiter. */
	private static RouterFunction<ServerResponse> named(String name, String budget, String pattern) {
		NamedRoute route = new NamedRoute() {

			@Override
			public String routeName() {
				return name;
			}

			@Override
			public String budget() {
				return budget;
			}

			@Override
			public boolean expensive() {
				return false;
			}

		};
		RouterFunction<ServerResponse> delegate = RouterFunctions.route(RequestPredicates.path(pattern), OK);
		return new RouterFunction<>() {

			@Override
			public Optional<HandlerFunction<ServerResponse>> route(ServerRequest request) {
				return delegate.route(request);
			}

			@Override
			public void accept(RouterFunctions.Visitor visitor) {
				visitor.attributes(Map.of(NamedRoute.ATTRIBUTE, route));
				delegate.accept(visitor);
				visitor.attributes(Map.of(NamedRoute.ATTRIBUTE, ""));
			}

		};
	}

}
