package dev.limiter.gateway.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.test.BudgetRecordingStore;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Routes in a {@code Weight} group: the gateway draws a group's route in a
 * {@code WebFilter} ({@code WeightCalculatorWebFilter}), and the limiter's filter asks
 * for the request's route before the gateway routes it. Each request must be counted
 * once, by the store, against the budget of the route the gateway actually forwards it
 * on. Each route has a backend of its own that counts what it received; the store records
 * every decision it is asked for.
 */
@ExtendWith(BlockHoundExtension.class)
class GatewayWeightedRouteTests {

	private static final int REQUESTS = 40;

	private static final Queue<String> decided = new ConcurrentLinkedQueue<>();

	private static CountingBackend blue;

	private static CountingBackend green;

	private static CountingBackend canary;

	private static CountingBackend stable;

	private static ConfigurableApplicationContext gateway;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@BeforeAll
	static void startTheBackendsAndTheGateway() throws Exception {
		blue = CountingBackend.start();
		green = CountingBackend.start();
		canary = CountingBackend.start();
		stable = CountingBackend.start();
		List<String> properties = new ArrayList<>(List.of("limiter.budgets.blue.windows.minute.limit=1000",
				"limiter.budgets.blue.windows.minute.duration=1m", "limiter.budgets.green.windows.minute.limit=2000",
				"limiter.budgets.green.windows.minute.duration=1m", "limiter.budgets.gold.windows.minute.limit=3000",
				"limiter.budgets.gold.windows.minute.duration=1m"));
		// two routes of one group, each on its own budget
		properties.addAll(weighted(0, "blue", blue, "/weighted/**", "deploy, 1", "Limiter=blue"));
		properties.addAll(weighted(1, "green", green, "/weighted/**", "deploy, 1", "Limiter=green"));
		// a group's only route without Limiter, before a route on Limiter for the same
		// path
		properties.addAll(weighted(2, "canary", canary, "/release/**", "release, 1", null));
		String at = "spring.cloud.gateway.server.webflux.routes[3].";
		properties.addAll(List.of(at + "id=stable", at + "uri=" + stable.uri(), at + "predicates[0]=Path=/release/**",
				at + "filters[0]=Limiter=gold"));
		gateway = GatewayApplication.run(properties, RecordingStoreConfiguration.class);
	}

	@AfterAll
	static void stopEverything() {
		if (gateway != null) {
			gateway.close();
		}
		for (CountingBackend backend : new CountingBackend[] { blue, green, canary, stable }) {
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
			HttpResponse<String> response = get("/weighted/items");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("backend /weighted/items");
			String limit = response.headers().firstValue("X-RateLimit-Limit").orElse(null);
			assertThat(limit).as("the counter headers of the budget of the route that forwarded it")
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
	void requestOnAWeightedRouteWithoutLimiterShouldBeCountedOnceByTheApplicationWideFilter() throws Exception {
		decided.clear();
		int canaryBefore = canary.received("release");
		int stableBefore = stable.received("release");

		for (int i = 0; i < REQUESTS; i++) {
			HttpResponse<String> response = get("/release/items");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("X-RateLimit-Limit")).as("the default budget").hasValue("600");
		}

		assertThat(canary.received("release") - canaryBefore).as("the group's only route, always drawn")
			.isEqualTo(REQUESTS);
		assertThat(stable.received("release") - stableBefore).isZero();
		assertThat(decided).as("one decision per request, on the default budget")
			.hasSize(REQUESTS)
			.containsOnly("standard");
	}

	private HttpResponse<String> get(String path) throws Exception {
		return http
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + GatewayApplication.port(gateway) + path))
				.header("Authorization", "Bearer tok-weighted")
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Route {@code id} in {@code Weight} group {@code weight}, with {@code filter}. */
	private static List<String> weighted(int index, String id, CountingBackend backend, String path, String weight,
			String filter) {
		String at = "spring.cloud.gateway.server.webflux.routes[" + index + "].";
		List<String> route = new ArrayList<>(List.of(at + "id=" + id, at + "uri=" + backend.uri(),
				at + "predicates[0]=Path=" + path, at + "predicates[1]=Weight=" + weight));
		if (filter != null) {
			route.add(at + "filters[0]=" + filter);
		}
		return route;
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
