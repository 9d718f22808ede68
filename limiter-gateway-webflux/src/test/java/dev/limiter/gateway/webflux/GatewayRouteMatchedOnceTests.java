package dev.limiter.gateway.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.handler.predicate.AbstractRoutePredicateFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route's predicates run once per request, whether the route carries {@code Limiter}
 * (the application-wide filter asks for the route, the gateway's dispatcher too) or not
 * (the application-wide filter finds its handler through the gateway's mapping): both are
 * answered from one lookup. Each route's predicate counts its evaluations.
 */
@ExtendWith(BlockHoundExtension.class)
class GatewayRouteMatchedOnceTests {

	private static final Map<String, AtomicInteger> evaluations = new ConcurrentHashMap<>();

	private static CountingBackend backend;

	private static ConfigurableApplicationContext gateway;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@BeforeAll
	static void startTheBackendAndTheGateway() throws Exception {
		backend = CountingBackend.start();
		List<String> properties = new ArrayList<>(List.of("limiter.budgets.gold.windows.minute.limit=100",
				"limiter.budgets.gold.windows.minute.duration=1m"));
		properties.addAll(countedRoute(0, "limited", "[0]=Limiter=gold"));
		properties.addAll(countedRoute(1, "plain"));
		gateway = GatewayApplication.run(properties, CountedPredicate.class);
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
	void gatewayWhenTheLimiterIsOnShouldUseTheMappingThatLooksTheRouteUpOnce() {
		assertThat(gateway.getBean(RoutePredicateHandlerMapping.class))
			.isInstanceOf(RouteMatchedOnceHandlerMapping.class);
	}

	@Test
	void requestOnALimiterRouteShouldRunTheRoutesPredicatesOnce() throws Exception {
		int before = evaluations("limited");

		for (int i = 0; i < 3; i++) {
			HttpResponse<String> response = get("/limited/items");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("X-RateLimit-Limit")).hasValue("100");
		}

		assertThat(evaluations("limited") - before).isEqualTo(3);
	}

	@Test
	void requestOnARouteWithoutLimiterShouldRunEachPredicateOnce() throws Exception {
		int limitedBefore = evaluations("limited");
		int plainBefore = evaluations("plain");

		for (int i = 0; i < 3; i++) {
			HttpResponse<String> response = get("/plain/items");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("X-RateLimit-Limit")).as("the default budget").hasValue("600");
		}

		assertThat(evaluations("plain") - plainBefore).isEqualTo(3);
		assertThat(evaluations("limited") - limitedBefore).as("the first route, which did not match").isEqualTo(3);
	}

	private static int evaluations(String route) {
		return evaluations.computeIfAbsent(route, (id) -> new AtomicInteger()).get();
	}

	private static List<String> countedRoute(int index, String id, String... filters) {
		String at = "spring.cloud.gateway.server.webflux.routes[" + index + "].";
		List<String> route = new ArrayList<>(
				List.of(at + "id=" + id, at + "uri=" + backend.uri(), at + "predicates[0]=Counted=/" + id + "/"));
		for (String filter : filters) {
			route.add(at + "filters" + filter);
		}
		return route;
	}

	private HttpResponse<String> get(String path) throws Exception {
		return http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + GatewayApplication.port(gateway) + path))
				.header("Authorization", "Bearer tok-once")
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * {@code Counted=<prefix>}: the path starts with the prefix; each evaluation counted.
	 */
	@Configuration(proxyBeanMethods = false)
	static class CountedPredicate {

		@Bean
		CountedRoutePredicateFactory countedRoutePredicateFactory() {
			return new CountedRoutePredicateFactory();
		}

	}

	static class CountedRoutePredicateFactory
			extends AbstractRoutePredicateFactory<CountedRoutePredicateFactory.Config> {

		CountedRoutePredicateFactory() {
			super(Config.class);
		}

		@Override
		public List<String> shortcutFieldOrder() {
			return List.of("prefix");
		}

		@Override
		public Predicate<ServerWebExchange> apply(Config config) {
			String id = config.getPrefix().replace("/", "");
			return (exchange) -> {
				evaluations.computeIfAbsent(id, (key) -> new AtomicInteger()).incrementAndGet();
				return exchange.getRequest().getPath().value().startsWith(config.getPrefix());
			};
		}

		public static class Config {

			private String prefix;

			public String getPrefix() {
				return prefix;
			}

			public void setPrefix(String prefix) {
				this.prefix = prefix;
			}

		}

	}

}
