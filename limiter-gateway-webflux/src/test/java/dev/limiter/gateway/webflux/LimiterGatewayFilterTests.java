package dev.limiter.gateway.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.limiter.routes.CurrentRouteInventory;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteSource;
import dev.limiter.test.reactive.BlockHoundExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code Limiter} route filter end to end: a gateway on a real port in front of a
 * local backend that counts what it received, on the in-process store, under BlockHound.
 */
@ExtendWith(BlockHoundExtension.class)
class LimiterGatewayFilterTests {

	private static CountingBackend backend;

	private static ConfigurableApplicationContext gateway;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String token = "tok-" + UUID.randomUUID();

	@BeforeAll
	static void startTheBackendAndTheGateway() throws Exception {
		backend = CountingBackend.start();
		List<String> properties = new ArrayList<>(List.of("limiter.gateway.report-header=X-Usage-Tokens",
				"limiter.budgets.gold.windows.minute.limit=3", "limiter.budgets.gold.windows.minute.duration=1m",
				"limiter.budgets.silver.windows.minute.limit=5", "limiter.budgets.silver.windows.minute.duration=1m",
				"limiter.budgets.llm.windows.minute.limit=1000", "limiter.budgets.llm.windows.minute.duration=1m",
				"limiter.budgets.llm.windows.tokens.limit=1000000", "limiter.budgets.llm.windows.tokens.duration=1m",
				"limiter.budgets.llm.windows.tokens.unit=tokens", "limiter.budgets.single.windows.minute.limit=1000",
				"limiter.budgets.single.windows.minute.duration=1m", "limiter.budgets.single.concurrency.max=1",
				"limiter.budgets.single.concurrency.lease=30s", "management.endpoints.web.exposure.include=limiter"));
		properties.addAll(GatewayApplication.route(0, "gold", backend.uri(), "[0]=Limiter=gold"));
		properties
			.addAll(GatewayApplication.route(1, "silver", backend.uri(), "[0].name=Limiter", "[0].args.budget=silver"));
		properties.addAll(GatewayApplication.route(2, "llm", backend.uri(), "[0].name=Limiter", "[0].args.budget=llm",
				"[0].args.estimates.tokens=500"));
		properties.addAll(GatewayApplication.route(3, "single", backend.uri(), "[0].name=Limiter",
				"[0].args.budget=single", "[0].args.expensive=true"));
		properties.addAll(GatewayApplication.route(4, "plain", backend.uri()));
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
	void shortcutRouteWhenOverItsBudgetShouldRefuseWithTheWholeContractAndForwardNothing() throws Exception {
		int before = backend.received("gold");
		for (int i = 1; i <= 3; i++) {
			HttpResponse<String> admitted = get("/gold/items", token);
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(admitted.body()).isEqualTo("backend /gold/items");
			assertThat(header(admitted, "X-RateLimit-Limit")).isEqualTo("3");
			assertThat(header(admitted, "X-RateLimit-Remaining")).isEqualTo(String.valueOf(3 - i));
			assertThat(header(admitted, "RateLimit-Policy")).isEqualTo("\"minute\";q=3;w=60");
		}
		HttpResponse<String> refused = get("/gold/items", token);

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(Long.parseLong(header(refused, "Retry-After"))).isBetween(1L, 60L);
		assertThat(header(refused, "X-RateLimit-Limit")).isEqualTo("3");
		assertThat(header(refused, "X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(header(refused, "X-RateLimit-Reset")).isNotNull();
		assertThat(header(refused, "RateLimit")).startsWith("\"minute\";r=0;t=");
		assertThat(header(refused, "RateLimit-Policy")).isEqualTo("\"minute\";q=3;w=60");
		assertThat(header(refused, "Cache-Control")).isEqualTo("no-store");
		assertThat(header(refused, "Content-Type")).startsWith("application/problem+json");
		assertThat(refused.body()).contains("\"status\":429").contains("\"budget\":\"gold\"");
		assertThat(backend.received("gold")).as("nothing forwarded once refused").isEqualTo(before + 3);
	}

	@Test
	void inventoryShouldListEachGatewayRouteByIdWithTheBudgetOfItsFilter() throws Exception {
		List<RouteInventory.Entry> entries = gateway.getBean(CurrentRouteInventory.class).inventory().entries();

		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route gold"))
			.singleElement()
			.satisfies((entry) -> {
				assertThat(entry.pattern()).isEqualTo("/gold/**");
				assertThat(entry.budget()).isEqualTo("gold");
				assertThat(entry.source()).isEqualTo(RouteSource.ROUTE_FILTER);
			});
		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route single"))
			.singleElement()
			.satisfies((entry) -> {
				assertThat(entry.budget()).isEqualTo("single");
				assertThat(entry.expensive()).isTrue();
			});
		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route plain"))
			.singleElement()
			.satisfies((entry) -> {
				assertThat(entry.budget()).isEqualTo("standard");
				assertThat(entry.source()).isEqualTo(RouteSource.DEFAULT);
			});
		HttpResponse<String> endpoint = get("/actuator/limiter", token);
		assertThat(endpoint.statusCode()).isEqualTo(200);
		assertThat(endpoint.body().replace(" ", ""))
			.contains("\"pattern\":\"/gold/**\",\"handler\":\"gatewayroutegold\"")
			.contains("\"budget\":\"gold\"");
	}

	@Test
	void decisionObservationShouldTagTheGatewayRouteId() throws Exception {
		assertThat(get("/silver/items", "route-tag-" + UUID.randomUUID()).statusCode()).isEqualTo(200);

		assertThat(registry().find("limiter.decision").tag("limiter.route", "silver").timer())
			.as("the decision's meter, tagged with the gateway's route id")
			.isNotNull();
	}

	@Test
	void namedRouteWhenItsArgsNameABudgetShouldCountAgainstIt() throws Exception {
		HttpResponse<String> admitted = get("/silver/items", token);

		assertThat(admitted.statusCode()).isEqualTo(200);
		assertThat(header(admitted, "X-RateLimit-Limit")).isEqualTo("5");
		assertThat(header(admitted, "X-RateLimit-Remaining")).isEqualTo("4");
	}

	@Test
	void requestOnALimiterRouteShouldBeCountedOnceNotAlsoByTheApplicationWideFilter() throws Exception {
		get("/gold/items", token);
		get("/silver/items", token);
		HttpResponse<String> plain = get("/plain/items", token);

		assertThat(plain.statusCode()).isEqualTo(200);
		assertThat(header(plain, "X-RateLimit-Limit")).as("a route without Limiter: the default budget")
			.isEqualTo("600");
		assertThat(header(plain, "X-RateLimit-Remaining")).as("the Limiter routes spent nothing of it")
			.isEqualTo("599");
	}

	@Test
	void reportHeaderWhenTheBackendReportsAnAmountShouldSettleItOnceAndStripIt() throws Exception {
		double settledBefore = settled("llm");
		double chargedBefore = charged("llm");
		double droppedBefore = dropped("llm", "missing") + dropped("llm", "malformed");
		HttpResponse<String> response = get("/llm/complete", token, "X-Backend-Report", "1234");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().allValues("X-Usage-Tokens")).as("stripped").isEmpty();
		await().atMost(Duration.ofSeconds(5)).until(() -> settled("llm") == settledBefore + 1);
		assertThat(charged("llm") - chargedBefore).as("the report beyond the route's estimate of 500")
			.isEqualTo(1234 - 500);
		assertThat(dropped("llm", "missing") + dropped("llm", "malformed")).isEqualTo(droppedBefore);
	}

	@Test
	void reportHeaderWhenMissingShouldKeepTheEstimateAndCountMissing() throws Exception {
		double before = dropped("llm", "missing");
		HttpResponse<String> response = get("/llm/complete", token);

		assertThat(response.statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(5)).until(() -> dropped("llm", "missing") == before + 1);
	}

	@Test
	void reportHeaderWhenMalformedShouldKeepTheEstimateCountMalformedAndStripIt() throws Exception {
		double before = dropped("llm", "malformed");
		HttpResponse<String> garbled = get("/llm/complete", token, "X-Backend-Report", "12a");
		HttpResponse<String> twice = get("/llm/complete", token, "X-Backend-Report", "10|10");

		assertThat(garbled.headers().allValues("X-Usage-Tokens")).isEmpty();
		assertThat(twice.headers().allValues("X-Usage-Tokens")).isEmpty();
		await().atMost(Duration.ofSeconds(5)).until(() -> dropped("llm", "malformed") == before + 2);
	}

	@Test
	void expensiveRouteShouldHoldItsLeaseUntilTheDownstreamResponseWasStreamedBack() throws Exception {
		CompletableFuture<HttpResponse<String>> slow = http.sendAsync(
				request("/single/slow", token).header("X-Backend-Delay", "1500").build(),
				HttpResponse.BodyHandlers.ofString());
		await().atMost(Duration.ofSeconds(5)).until(() -> backend.received("single") >= 1);
		HttpResponse<String> meanwhile = get("/single/fast", token);
		HttpResponse<String> first = slow.get();

		assertThat(meanwhile.statusCode()).as("the bound of one held by the slow request").isEqualTo(429);
		assertThat(first.statusCode()).isEqualTo(200);
		// The lease goes back when the gateway's write of the response completes, which
		// the server learns just after the client has read the last byte: a request sent
		// at once may still find it held (a loaded CI machine did), so it is asked again
		// for a moment. A refused request holds nothing, and a lease never handed back
		// would hold for its 30 s.
		await().atMost(Duration.ofSeconds(2))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(get("/single/fast", token).statusCode())
				.as("the lease handed back once the response ended")
				.isEqualTo(200));
	}

	private static double settled(String budget) {
		Counter counter = registry().find("limiter.settlements")
			.tag("budget", budget)
			.tag("outcome", "settled")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static double charged(String budget) {
		Counter counter = registry().find("limiter.units.settled")
			.tag("budget", budget)
			.tag("unit", "tokens")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static double dropped(String budget, String reason) {
		return registry().find("limiter.settlements.dropped")
			.tag("budget", budget)
			.tag("reason", reason)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private static MeterRegistry registry() {
		return gateway.getBean(MeterRegistry.class);
	}

	private HttpResponse<String> get(String path, String bearer, String... headers) throws Exception {
		HttpRequest.Builder request = request(path, bearer);
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static HttpRequest.Builder request(String path, String bearer) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + GatewayApplication.port(gateway) + path))
			.header("Authorization", "Bearer " + bearer)
			.timeout(Duration.ofSeconds(10));
	}

	private static String header(HttpResponse<?> response, String name) {
		return response.headers().firstValue(name).orElse(null);
	}

}
