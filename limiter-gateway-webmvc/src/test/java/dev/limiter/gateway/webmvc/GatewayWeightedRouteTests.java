package dev.limiter.gateway.webmvc;

import java.net.http.HttpResponse;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.test.BudgetRecordingStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.filter.BeforeFilterFunctions;
import org.springframework.cloud.gateway.server.mvc.handler.GatewayRouterFunctions;
import org.springframework.cloud.gateway.server.mvc.handler.HandlerFunctions;
import org.springframework.cloud.gateway.server.mvc.predicate.GatewayRequestPredicates;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Routes in a {@code Weight} group: the gateway draws a group's route in a servlet filter
 * ({@code WeightCalculatorFilter}), and the limiter's filter finds the request's route
 * before the gateway routes it. The group of two is made of Java DSL routes: the gateway
 * (4.3, 5.0) registers the weight of only one {@code Weight} predicate among the routes
 * of its configuration. Each request must be counted once, by the store, against the
 * budget of the route the gateway actually forwards it on. Each route has a backend of
 * its own that counts what it received; the store records every decision it is asked for.
 */
class GatewayWeightedRouteTests {

	private static final int REQUESTS = 40;

	private static final Queue<String> decided = new ConcurrentLinkedQueue<>();

	private static Backend blue;

	private static Backend green;

	private static Backend canary;

	private static Backend stable;

	private static ConfigurableApplicationContext gateway;

	@BeforeAll
	static void start() throws Exception {
		blue = Backend.start();
		green = Backend.start();
		canary = Backend.start();
		stable = Backend.start();
		String routes = "spring.cloud.gateway.server.webmvc.routes";
		gateway = new SpringApplicationBuilder(GatewayTestApplication.class, RecordingStoreConfiguration.class,
				DeployRoutes.class)
			.web(WebApplicationType.SERVLET)
			.properties("server.port=0", "backend.uri=" + blue.uri(), "green.uri=" + green.uri(),
					"limiter.auth-guard.enabled=false", "limiter.budgets.blue.windows.minute.limit=1000",
					"limiter.budgets.blue.windows.minute.duration=1m",
					"limiter.budgets.green.windows.minute.limit=2000",
					"limiter.budgets.green.windows.minute.duration=1m",
					"limiter.budgets.gold.windows.minute.limit=3000", "limiter.budgets.gold.windows.minute.duration=1m",
					// the application's Java DSL route's budget
					"limiter.budgets.dsl.windows.minute.limit=2", "limiter.budgets.dsl.windows.minute.duration=1m",
					routes + "[0].id=canary", routes + "[0].uri=" + canary.uri(),
					routes + "[0].predicates[0]=Path=/release/**", routes + "[0].predicates[1]=Weight=release,1",
					routes + "[1].id=stable", routes + "[1].uri=" + stable.uri(),
					routes + "[1].predicates[0]=Path=/release/**", routes + "[1].filters[0]=Limiter=gold")
			.run();
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
		for (Backend backend : new Backend[] { blue, green, canary, stable }) {
			if (backend != null) {
				backend.close();
			}
		}
	}

	@Test
	void requestOnAWeightedLimiterRouteShouldBeCountedOnceAgainstTheBudgetOfTheRouteItWasForwardedOn()
			throws Exception {
		decided.clear();
		int blueBefore = blue.received("weighted");
		int greenBefore = green.received("weighted");

		for (int i = 0; i < REQUESTS; i++) {
			HttpResponse<String> response = Gateways.get(gateway, "/weighted/items", "weighted");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(Gateways.header(response, "X-RateLimit-Limit"))
				.as("the counter headers of the budget of the route that forwarded it")
				.isIn("1000", "2000");
		}

		int toBlue = blue.received("weighted") - blueBefore;
		int toGreen = green.received("weighted") - greenBefore;
		assertThat(toBlue + toGreen).isEqualTo(REQUESTS);
		assertThat(toBlue).as("both routes drawn").isPositive();
		assertThat(toGreen).as("both routes drawn").isPositive();
		assertThat(decided).as("one decision per request, on the forwarding route's budget").hasSize(REQUESTS);
		assertThat(decided).filteredOn("blue"::equals).hasSize(toBlue);
		assertThat(decided).filteredOn("green"::equals).hasSize(toGreen);
	}

	@Test
	void requestOnAWeightedRouteWithoutLimiterShouldBeCountedOnceOnTheDefaultBudget() throws Exception {
		decided.clear();
		int canaryBefore = canary.received("release");
		int stableBefore = stable.received("release");

		for (int i = 0; i < REQUESTS; i++) {
			HttpResponse<String> response = Gateways.get(gateway, "/release/items", "release");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(Gateways.header(response, "X-RateLimit-Limit")).as("the default budget").isEqualTo("600");
		}

		assertThat(canary.received("release") - canaryBefore).as("the group's only route, always drawn")
			.isEqualTo(REQUESTS);
		assertThat(stable.received("release") - stableBefore).isZero();
		assertThat(decided).as("one decision per request, on the default budget")
			.hasSize(REQUESTS)
			.containsOnly("standard");
	}

	/** Routes {@code blue} and {@code green}, the two of group {@code deploy}. */
	@Configuration(proxyBeanMethods = false)
	static class DeployRoutes {

		@Bean
		RouterFunction<ServerResponse> blueRoute(@Value("${backend.uri}") String uri) {
			return weighted("blue", uri);
		}

		@Bean
		RouterFunction<ServerResponse> greenRoute(@Value("${green.uri}") String uri) {
			return weighted("green", uri);
		}

		private static RouterFunction<ServerResponse> weighted(String id, String uri) {
			return GatewayRouterFunctions.route(id)
				.route(GatewayRequestPredicates.weight("deploy", 1).and(RequestPredicates.path("/weighted/**")),
						HandlerFunctions.http())
				.before(BeforeFilterFunctions.uri(uri))
				// the route's id beside the budget: the gateway registers a Weight
				// predicate's route id from the innermost attributes of its route
				.withAttributes(LimiterFilterFunctions.limiter(id)
					.andThen((attributes) -> attributes.put(MvcUtils.GATEWAY_ROUTE_ID_ATTR, id)))
				.build();
		}

	}

	/** The in-process store, recording the budget of every decision asked of it. */
	@Configuration(proxyBeanMethods = false)
	static class RecordingStoreConfiguration {

		@Bean
		RateLimitStore recordingStore() {
			return new BudgetRecordingStore(RateLimitStores.inMemory(1000), decided::add);
		}

	}

}
