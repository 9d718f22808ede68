package dev.limiter.reactive.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.stream.Stream;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.spring.RateLimitExempt;
import dev.limiter.spring.RateLimited;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A WebFlux application on Reactor Netty over a real port, on Boot 3, reactive Spring
 * Security with HTTP Basic: an anonymous caller counted by its address and refused with
 * the contract's 429, a user counted by its principal against the standard budget,
 * {@code @RateLimitExempt}, a {@code RouterFunction} route under a {@code limiter.routes}
 * rule, and an expensive stream whose client goes away mid-stream: its lease comes back.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = ReactiveLimiterHttpTests.ReactiveApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "limiter.auth-guard.enabled=false",
				"limiter.budgets.anonymous.windows.minute.limit=2", "limiter.budgets.standard.windows.minute.limit=50",
				"limiter.budgets.standard.concurrency.max=1", "limiter.routes[0].pattern=/fn/free",
				"limiter.routes[0].exempt=true", "limiter.routes[0].reason=test" })
class ReactiveLimiterHttpTests {

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@Test
	void contextWhenReactiveShouldHoldTheWebFilterOnly() {
		assertThat(context.getBeansOfType(ReactiveRateLimitFilter.class)).hasSize(1);
		assertThat(context.getBeanNamesForType(RateLimitFilter.class)).isEmpty();
	}

	@Test
	void anonymousCallerWhenBudgetIsSpentShouldGetTheContractsRefusal() {
		WebTestClient client = client();
		client.get()
			.uri("/links")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("X-RateLimit-Limit", "2");
		client.get().uri("/links").exchange().expectHeader().valueEquals("X-RateLimit-Remaining", "0");
		client.get()
			.uri("/links")
			.exchange()
			.expectStatus()
			.isEqualTo(429)
			.expectHeader()
			.exists("Retry-After")
			.expectHeader()
			.valueEquals("Cache-Control", "no-store")
			.expectHeader()
			.valueEquals("Content-Type", "application/problem+json;charset=UTF-8")
			.expectBody()
			.jsonPath("$.error")
			.isEqualTo("rate_limit_exceeded")
			.jsonPath("$.budget")
			.isEqualTo("anonymous");
	}

	@Test
	void userWhenAuthenticatedShouldBeCountedAgainstTheStandardBudget() {
		client().get()
			.uri("/fn/hello")
			.headers((headers) -> headers.setBasicAuth("alice", "secret"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("X-RateLimit-Limit", "50")
			.expectHeader()
			.valueEquals("X-RateLimit-Remaining", "49");
	}

	@Test
	void exemptRoutesWhenCalledShouldCarryNoCounters() {
		client().get().uri("/ping").exchange().expectStatus().isOk().expectHeader().doesNotExist("X-RateLimit-Limit");
		client().get()
			.uri("/fn/free")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.doesNotExist("X-RateLimit-Limit");
	}

	@Test
	void expensiveStreamWhenClientGoesAwayMidStreamShouldHandBackItsLease() {
		WebTestClient client = client();
		Flux<String> ticks = client.get()
			.uri("/stream")
			.headers((headers) -> headers.setBasicAuth("bob", "secret"))
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
		// the first tick arrives while the stream holds bob's one slot
		assertThat(ticks.take(1).blockLast(Duration.ofSeconds(10))).startsWith("tick");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> client.get()
				.uri("/stream/once")
				.headers((headers) -> headers.setBasicAuth("bob", "secret"))
				.exchange()
				.expectStatus()
				.isOk());
	}

	@Test
	void expensiveStreamWhileItRunsShouldHoldItsSlot() {
		WebTestClient client = client();
		Flux<String> ticks = client.get()
			.uri("/stream")
			.headers((headers) -> headers.setBasicAuth("carol", "secret"))
			.exchange()
			.returnResult(String.class)
			.getResponseBody();
		try (Stream<String> streaming = ticks.toStream()) {
			assertThat(streaming.findFirst()).hasValueSatisfying((tick) -> assertThat(tick).startsWith("tick"));
			client.get()
				.uri("/stream/once")
				.headers((headers) -> headers.setBasicAuth("carol", "secret"))
				.exchange()
				.expectStatus()
				.isEqualTo(429)
				.expectHeader()
				.exists(HttpHeaders.RETRY_AFTER)
				.expectBody()
				.jsonPath("$.bound")
				.isEqualTo("concurrency");
		}
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

		/**
		 * Time stands still mid-minute: no window boundary falls between a test's calls,
		 * so the remaining counts and refusals they assert are exact. No test here waits
		 * for a window or a lease to run out.
		 */
		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME, defaultCandidate = false)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
		}

		/**
		 * Reactor Netty, as a WebFlux application runs: with Tomcat also on this module's
		 * test class path, Boot would otherwise serve the reactive application on Tomcat.
		 */
		@Bean
		NettyReactiveWebServerFactory reactorNettyServer() {
			return new NettyReactiveWebServerFactory();
		}

		@Bean
		SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
			return http.authorizeExchange((exchanges) -> exchanges.anyExchange().permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf(ServerHttpSecurity.CsrfSpec::disable)
				.build();
		}

		@Bean
		MapReactiveUserDetailsService users() {
			return new MapReactiveUserDetailsService(
					User.withUsername("alice").password("{noop}secret").roles("USER").build(),
					User.withUsername("bob").password("{noop}secret").roles("USER").build(),
					User.withUsername("carol").password("{noop}secret").roles("USER").build());
		}

		@Bean
		RouterFunction<ServerResponse> functionalRoutes() {
			return RouterFunctions.route()
				.GET("/fn/hello", (request) -> ServerResponse.ok().bodyValue("hello"))
				.GET("/fn/free", (request) -> ServerResponse.ok().bodyValue("free"))
				.build();
		}

	}

	@RestController
	static class Handlers {

		@GetMapping("/links")
		String links() {
			return "links";
		}

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
