package dev.limiter.boot4;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;

import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.spring.RateLimitExempt;
import dev.limiter.spring.RateLimited;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A WebFlux application on Boot 4 (Reactor Netty over a real port) with the Boot 4
 * starter and nothing else of the limiter's, counting on a real redis-server through
 * Lettuce: the contract's 429, a {@code RouterFunction} route, {@code @RateLimitExempt},
 * an expensive stream whose client goes away mid-stream hands back its lease, and
 * {@code limiter.max-request-body}'s 413 from the reactive configuration's own filter.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = Boot4ReactiveEndToEndTests.ReactiveApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "limiter.store=redis",
				"limiter.redis.key-prefix=boot4reactive", "limiter.headers=both",
				"limiter.budgets.anonymous.windows.minute.limit=3", "limiter.budgets.anonymous.concurrency.max=1",
				"management.health.redis.enabled=false", "limiter.max-request-body=1KB",
				// the stream test is another client (its own address), as behind a proxy
				"server.forward-headers-strategy=framework" })
@UsesRedisServer
class Boot4ReactiveEndToEndTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final String STREAM_CLIENT = "198.51.100.7";

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", () -> redis.port());
	}

	@Test
	void requestWhenOverBudgetOnBoot4ReactiveShouldBeRefusedWithTheContractsHeadersAndBody() {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.");
		assertThat(context.getBeansOfType(ReactiveRateLimitFilter.class)).hasSize(1);
		assertThat(context.getBeanNamesForType(RateLimitFilter.class)).isEmpty();
		WebTestClient client = client();
		client.get()
			.uri("/fn/hello")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("X-RateLimit-Limit", "3")
			.expectHeader()
			.exists("RateLimit-Policy");
		// The window is a wall-clock minute: at most one boundary can fall inside the
		// loop,
		// so 3 + 3 + 1 calls always reach a refusal.
		EntityExchangeResult<byte[]> refused = null;
		for (int call = 0; call < 6 && refused == null; call++) {
			EntityExchangeResult<byte[]> answer = client.get().uri("/fn/hello").exchange().expectBody().returnResult();
			if (answer.getStatus().value() == 429) {
				refused = answer;
			}
			else {
				assertThat(answer.getStatus().value()).as("admitted or refused").isEqualTo(200);
			}
		}
		assertThat(refused).as("a refusal within two windows' budgets").isNotNull();
		assertThat(refused.getResponseHeaders().getFirst("Cache-Control")).isEqualTo("no-store");
		assertThat(refused.getResponseHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(new String(refused.getResponseBody(), StandardCharsets.UTF_8)).contains("\"status\":429")
			.contains("\"budget\":\"anonymous\"");
		assertThat(((Number) redis.server().call("DBSIZE")).longValue()).as("counted in Redis").isPositive();
		client.get().uri("/ping").exchange().expectStatus().isOk().expectHeader().doesNotExist("X-RateLimit-Limit");
	}

	@Test
	void bodyWhenDeclaredOverTheBoundOnBoot4ReactiveShouldBeRefusedWith413() {
		client().post()
			.uri("/ping")
			.contentType(MediaType.TEXT_PLAIN)
			.bodyValue("x".repeat(2048))
			.exchange()
			.expectStatus()
			.isEqualTo(413)
			.expectHeader()
			.valueEquals("Content-Type", "application/problem+json;charset=UTF-8")
			.expectBody()
			.jsonPath("$.error")
			.isEqualTo("request_body_too_large")
			.jsonPath("$.limit")
			.isEqualTo(1024);
	}

	@Test
	void expensiveStreamWhenClientGoesAwayOnBoot4ShouldHandBackItsLease() {
		WebTestClient client = client();
		Flux<String> ticks = client.get()
			.uri("/stream")
			.header("X-Forwarded-For", STREAM_CLIENT)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.returnResult(String.class)
			.getResponseBody();
		try (Stream<String> streaming = ticks.toStream()) {
			assertThat(streaming.findFirst()).hasValueSatisfying((tick) -> assertThat(tick).startsWith("tick"));
			client.get()
				.uri("/stream")
				.header("X-Forwarded-For", STREAM_CLIENT)
				.exchange()
				.expectStatus()
				.isEqualTo(429)
				.expectBody()
				.jsonPath("$.bound")
				.isEqualTo("concurrency");
		}
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> client.get()
				.uri("/stream/once")
				.header("X-Forwarded-For", STREAM_CLIENT)
				.exchange()
				.expectStatus()
				.isOk());
	}

	private WebTestClient client() {
		// a generous wait: a build that runs test JVMs side by side can be slow to answer
		// the first request
		return WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + port)
			.responseTimeout(Duration.ofSeconds(30))
			.build();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(Handlers.class)
	static class ReactiveApplication {

		@Bean
		RouterFunction<ServerResponse> functionalRoutes() {
			return RouterFunctions.route()
				.GET("/fn/hello", (request) -> ServerResponse.ok().bodyValue("hello"))
				.build();
		}

	}

	@RestController
	static class Handlers {

		@RateLimitExempt(reason = "probe")
		@GetMapping("/ping")
		String ping() {
			return "pong";
		}

		@RateLimited(expensive = true)
		@GetMapping(path = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
		Flux<String> stream() {
			// paced by the client's demand: a client that reads slowly holds the stream
			// open
			return Flux.range(0, 1_000).delayElements(Duration.ofMillis(100)).map((tick) -> "tick " + tick);
		}

		@RateLimited(expensive = true)
		@GetMapping("/stream/once")
		String once() {
			return "once";
		}

	}

}
