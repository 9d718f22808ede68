package dev.limiter.autoconfigure.openapi;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.openapi.RateLimitOpenApiCustomizer;
import dev.limiter.reactive.ReactiveRouteInventory;
import dev.limiter.routes.RouteInventory;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter in springdoc's document of a WebFlux application (springdoc's WebFlux
 * module, Reactor Netty over a real port, Boot 3): the 429 and the counter headers on a
 * counted operation, none on an exempt one, the quota endpoint; and the
 * {@code RouterFunction} routes in the reactive route inventory, under the
 * {@code limiter.routes} rule that covers them.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = ReactiveOpenApiHttpTests.ReactiveApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "limiter.auth-guard.enabled=false",
				"limiter.budgets.standard.windows.minute.limit=12", "limiter.budgets.functional.windows.minute.limit=3",
				"limiter.budgets.functional.windows.minute.duration=1m", "limiter.routes[0].pattern=/free",
				"limiter.routes[0].exempt=true", "limiter.routes[0].reason=probe",
				"limiter.routes[1].pattern=/functional/**", "limiter.routes[1].budget=functional",
				"limiter.routes[2].pattern=/v3/api-docs/**", "limiter.routes[2].exempt=true",
				"limiter.routes[2].reason=the document", "limiter.quota-endpoint.path=/quota" })
class ReactiveOpenApiHttpTests {

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	int port;

	@Autowired
	ReactiveRouteInventory inventory;

	@Test
	void apiDocsWhenAnOperationIsCountedShouldDocumentItsTooManyRequestsAndCounterHeaders() throws Exception {
		JsonNode counted = apiDocs().get("paths").get("/counted").get("get");

		assertThat(counted.get("responses").has("429")).as(counted.toString()).isTrue();
		assertThat(counted.get("responses").get("200").get("headers").has("X-RateLimit-Remaining"))
			.as(counted.toString())
			.isTrue();
		assertThat(counted.get(RateLimitOpenApiCustomizer.EXTENSION).toString()).contains("standard");
	}

	@Test
	void apiDocsWhenAnOperationIsExemptShouldLeaveItAsItIs() throws Exception {
		JsonNode free = apiDocs().get("paths").get("/free").get("get");

		assertThat(free.get("responses").has("429")).as(free.toString()).isFalse();
		assertThat(free.has(RateLimitOpenApiCustomizer.EXTENSION)).isFalse();
	}

	@Test
	void apiDocsWhenTheQuotaEndpointIsSetShouldDocumentIt() throws Exception {
		JsonNode quota = apiDocs().get("paths").get("/quota");

		assertThat(quota).as(apiDocs().get("paths").toString()).isNotNull();
		assertThat(quota.get("get").get("responses").has("200")).isTrue();
	}

	@Test
	void inventoryWhenRoutesAreFunctionalShouldListThemUnderTheRuleThatCoversThem() {
		List<RouteInventory.Entry> functional = inventory.inventory()
			.entries()
			.stream()
			.filter((entry) -> entry.pattern().startsWith("/functional"))
			.toList();

		assertThat(functional).extracting(RouteInventory.Entry::pattern)
			.containsExactlyInAnyOrder("/functional/items", "/functional/items/{id}");
		assertThat(functional).allSatisfy((entry) -> {
			assertThat(entry.budget()).isEqualTo("functional");
			assertThat(entry.methods()).containsExactly("GET");
		});
	}

	private JsonNode apiDocs() throws Exception {
		byte[] body = client().get()
			.uri("/v3/api-docs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody();
		return json.readTree(body);
	}

	private WebTestClient client() {
		// the first document is built on that request, slow on a busy machine
		return WebTestClient.bindToServer()
			.baseUrl("http://localhost:" + port)
			.responseTimeout(Duration.ofSeconds(30))
			.build();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(Handlers.class)
	static class ReactiveApplication {

		@Bean
		NettyReactiveWebServerFactory reactorNettyServer() {
			return new NettyReactiveWebServerFactory();
		}

		@Bean
		SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
			return http.authorizeExchange((exchanges) -> exchanges.anyExchange().permitAll())
				.csrf(ServerHttpSecurity.CsrfSpec::disable)
				.build();
		}

		@Bean
		RouterFunction<ServerResponse> functionalRoutes() {
			return RouterFunctions.nest(RequestPredicates.path("/functional"),
					RouterFunctions.route()
						.GET("/items", (request) -> ServerResponse.ok().bodyValue("items"))
						.GET("/items/{id}", (request) -> ServerResponse.ok().bodyValue("item"))
						.build());
		}

	}

	@RestController
	static class Handlers {

		@GetMapping("/counted")
		Mono<String> counted() {
			return Mono.just("counted");
		}

		@GetMapping("/free")
		Mono<String> free() {
			return Mono.just("free");
		}

	}

}
