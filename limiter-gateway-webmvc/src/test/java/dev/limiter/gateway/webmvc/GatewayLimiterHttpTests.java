package dev.limiter.gateway.webmvc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.routes.RouteSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway on a real port in front of a backend that counts what it receives: a route on
 * {@code Limiter=<budget>} is counted on that budget under its route id, refuses the
 * {@code limit + 1}th request with the whole HTTP contract before anything is forwarded,
 * and adds the counters to the downstream response it admits; a route without the filter
 * is counted on the default budget; a Java DSL route names its budget in its attributes.
 */
class GatewayLimiterHttpTests {

	private static Backend backend;

	private static ConfigurableApplicationContext gateway;

	/** Each test's own caller, so that each counts on keys of its own. */
	private final String caller = UUID.randomUUID().toString();

	@BeforeAll
	static void start() throws Exception {
		backend = Backend.start();
		gateway = Gateways.start(backend);
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
	void limiterRouteWhenItsBudgetIsSpentShouldRefuseWithTheWholeContractAndForwardNothing() throws Exception {
		for (int i = 1; i <= 3; i++) {
			HttpResponse<String> admitted = Gateways.get(gateway, "/limited/items", caller);
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(admitted.body()).isEqualTo("ok");
			assertThat(Gateways.header(admitted, "X-RateLimit-Limit")).isEqualTo("3");
			assertThat(Gateways.header(admitted, "X-RateLimit-Remaining")).isEqualTo(String.valueOf(3 - i));
			assertThat(Gateways.header(admitted, "RateLimit-Policy")).contains("q=3");
			assertThat(Gateways.header(admitted, "RateLimit")).contains("r=" + (3 - i));
		}
		assertThat(backend.received("limited")).isEqualTo(3);

		HttpResponse<String> refused = Gateways.get(gateway, "/limited/items", caller);

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(Long.parseLong(Gateways.header(refused, "Retry-After"))).isBetween(1L, 60L);
		assertThat(Gateways.header(refused, "X-RateLimit-Limit")).isEqualTo("3");
		assertThat(Gateways.header(refused, "X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(Gateways.header(refused, "X-RateLimit-Reset")).isNotNull();
		assertThat(Gateways.header(refused, "RateLimit-Policy")).contains("q=3");
		assertThat(Gateways.header(refused, "RateLimit")).contains("r=0");
		assertThat(Gateways.header(refused, "Cache-Control")).isEqualTo("no-store");
		assertThat(Gateways.header(refused, "Content-Type")).startsWith("application/problem+json");
		assertThat(refused.body()).contains("\"status\":429").contains("\"budget\":\"tight\"");
		assertThat(backend.received("limited")).as("nothing forwarded once refused").isEqualTo(3);
	}

	@Test
	void expensiveRouteShouldHoldItsLeaseUntilTheDownstreamResponseHasBeenStreamedBack() throws Exception {
		// each request on a client of its own: a JDK client was seen to hold a request
		// while another of its responses was still streaming
		CompletableFuture<HttpResponse<String>> streaming = HttpClient.newHttpClient()
			.sendAsync(request("/slow/stream"), HttpResponse.BodyHandlers.ofString());
		backend.awaitSlowStarted();

		HttpResponse<String> whileStreaming = HttpClient.newHttpClient()
			.send(request("/slow/other"), HttpResponse.BodyHandlers.ofString());
		backend.releaseSlow();
		HttpResponse<String> streamed = streaming.get(30, TimeUnit.SECONDS);
		CompletableFuture<HttpResponse<String>> afterwards = HttpClient.newHttpClient()
			.sendAsync(request("/slow/next"), HttpResponse.BodyHandlers.ofString());
		backend.awaitSlowStarted();
		backend.releaseSlow();

		assertThat(whileStreaming.statusCode()).as("the one lease is held while the body streams").isEqualTo(429);
		assertThat(whileStreaming.body()).contains("\"bound\":\"concurrency\"");
		assertThat(streamed.statusCode()).isEqualTo(200);
		assertThat(streamed.body()).isEqualTo("first,last");
		assertThat(afterwards.get(30, TimeUnit.SECONDS).statusCode())
			.as("the lease came back once the body was streamed")
			.isEqualTo(200);
	}

	private HttpRequest request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + Gateways.port(gateway) + path))
			.version(HttpClient.Version.HTTP_1_1)
			.header(GatewayTestApplication.CALLER_HEADER, caller)
			.timeout(Duration.ofSeconds(30))
			.build();
	}

	@Test
	void javaDslRouteShouldBeCountedOnTheBudgetOfItsAttributes() throws Exception {
		assertThat(Gateways.get(gateway, "/dsl/a", caller).statusCode()).isEqualTo(200);
		HttpResponse<String> second = Gateways.get(gateway, "/dsl/a", caller);
		assertThat(Gateways.header(second, "X-RateLimit-Limit")).isEqualTo("2");

		HttpResponse<String> refused = Gateways.get(gateway, "/dsl/a", caller);

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"budget\":\"dsl\"");
		assertThat(backend.received("dsl")).isEqualTo(2);
	}

	@Test
	void routeWithoutLimiterShouldBeCountedOnTheDefaultBudget() throws Exception {
		HttpResponse<String> response = Gateways.get(gateway, "/open/x", caller);

		assertThat(response.statusCode()).isEqualTo(200);
		String defaultLimit = Gateways.header(Gateways.get(gateway, "/local/ping", caller), "X-RateLimit-Limit");
		assertThat(defaultLimit).isNotNull();
		assertThat(Gateways.header(response, "X-RateLimit-Limit")).isEqualTo(defaultLimit);
		assertThat(backend.received("open")).isEqualTo(1);
	}

	@Test
	void inventoryShouldListEachGatewayRouteByIdWithTheBudgetOfItsFilter() {
		List<RouteInventory.Entry> entries = gateway.getBean(RouteInventoryCheck.class).inventory().entries();

		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route limited"))
			.singleElement()
			.satisfies((entry) -> {
				assertThat(entry.pattern()).isEqualTo("/limited/**");
				assertThat(entry.budget()).isEqualTo("tight");
				assertThat(entry.source()).isEqualTo(RouteSource.ROUTE_FILTER);
			});
		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route usage"))
			.singleElement()
			.satisfies((entry) -> assertThat(entry.budget()).isEqualTo("tokens"));
		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route dsl"))
			.singleElement()
			.satisfies((entry) -> assertThat(entry.budget()).isEqualTo("dsl"));
		assertThat(entries).filteredOn((entry) -> entry.handler().equals("gateway route open"))
			.singleElement()
			.satisfies((entry) -> assertThat(entry.source()).isEqualTo(RouteSource.DEFAULT));
	}

	@Test
	void decisionMetersShouldTagTheGatewayRouteId() throws Exception {
		assertThat(Gateways.get(gateway, "/usage/m", caller).statusCode()).isEqualTo(200);

		MeterRegistry meters = gateway.getBean(MeterRegistry.class);
		assertThat(meters.find("limiter.decision").tag("limiter.route", "usage").timer()).isNotNull();
	}

}
