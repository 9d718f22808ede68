package dev.limiter.reactive.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.core.Sha256;
import dev.limiter.reactive.ReactiveQuotaEndpointFilter;
import dev.limiter.reactive.ReactiveRateLimitUsage;
import dev.limiter.spring.RateLimited;
import dev.limiter.test.reactive.BlockHoundExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an operator has of a WebFlux application, on Reactor Netty over a real port, on
 * Boot 3, as of a servlet one: the {@code limiter} endpoint (its overview and totals, one
 * key's counters read and forgotten, the most-refused callers, the refresh section),
 * {@code no-store} on every one of its responses, the health component, and the meters of
 * decisions, store latency, settlements and leases.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = ReactiveOperationsHttpTests.ReactiveApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "limiter.auth-guard.enabled=false",
				"management.endpoints.web.exposure.include=limiter,health",
				"management.endpoint.health.show-details=always", "management.health.redis.enabled=false",
				"limiter.budgets.standard.windows.minute.limit=50", "limiter.budgets.standard.concurrency.max=5",
				"limiter.budgets.tight.windows.minute.limit=2", "limiter.budgets.tight.windows.minute.duration=1m",
				"limiter.budgets.tokens.windows.minute.limit=50", "limiter.budgets.tokens.windows.minute.duration=1m",
				"limiter.budgets.tokens.windows.tokens.limit=1000", "limiter.budgets.tokens.windows.tokens.duration=1m",
				"limiter.budgets.tokens.windows.tokens.unit=tokens", "limiter.routes[0].pattern=/actuator/**",
				"limiter.routes[0].exempt=true", "limiter.routes[0].reason=operations",
				"limiter.routes[1].pattern=/complete", "limiter.routes[1].budget=tokens",
				"limiter.routes[1].estimates.tokens=100" })
class ReactiveOperationsHttpTests {

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@Autowired
	ApplicationContext context;

	@Test
	void endpointWhenReadShouldDescribeBudgetsStoreAndTotals() throws Exception {
		for (int i = 0; i < 3; i++) {
			client().get().uri("/tight").headers((h) -> h.setBasicAuth("totals", "secret")).exchange();
		}

		JsonNode body = read("/actuator/limiter");

		assertThat(body.get("store").asText()).isEqualTo("memory");
		assertThat(body.get("mode").asText()).isEqualTo("authoritative");
		assertThat(body.get("defaultBudget").asText()).isEqualTo("standard");
		JsonNode tight = body.get("budgets").get("tight");
		assertThat(tight.get("windows").get(0).get("limit").asLong()).isEqualTo(2);
		assertThat(tight.get("totals").get("requests").asLong()).isGreaterThanOrEqualTo(3);
		assertThat(tight.get("totals").get("refused").asLong()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void keyWhenReadThenForgottenShouldShowItsCountersThenAdmitTheNextRequest() throws Exception {
		String keyHash = "p:" + Sha256.base64Url("erin");
		assertThat(status("/tight", "erin")).isEqualTo(200);

		JsonNode read = read("/actuator/limiter/keys/" + keyHash + "?budget=tight");

		JsonNode minute = read.get("counters").get(0).get("bounds").get(0);
		assertThat(read.get("key").asText()).isEqualTo(keyHash);
		assertThat(minute.get("remaining").asLong()).isEqualTo(1);
		assertThat(status("/tight", "erin")).isEqualTo(200);
		assertThat(status("/tight", "erin")).isEqualTo(429);
		client().delete().uri("/actuator/limiter/keys/" + keyHash + "?budget=tight").exchange().expectStatus().isOk();
		assertThat(status("/tight", "erin")).isEqualTo(200);
	}

	@Test
	void refusedWhenACallerIsRefusedShouldListItWithItsPrincipal() throws Exception {
		for (int i = 0; i < 5; i++) {
			status("/tight", "hitter"); // 2 a minute: 3 refusals
		}

		JsonNode body = read("/actuator/limiter/refused");

		JsonNode hitter = null;
		for (JsonNode caller : body.get("callers")) {
			if (caller.get("key").asText().equals("p:" + Sha256.base64Url("hitter"))) {
				hitter = caller;
			}
		}
		assertThat(hitter).as(body.toString()).isNotNull();
		assertThat(hitter.get("refusals").asLong()).isEqualTo(3);
		assertThat(hitter.get("principal").asText()).isEqualTo("hitter");
		assertThat(hitter.get("budget").asText()).isEqualTo("tight");
	}

	@Test
	void endpointWhenTheRequestIsBadShouldAnswerNoStoreForBrowsersAndCdns() {
		client().get()
			.uri("/actuator/limiter/keys/not-a-hash")
			.exchange()
			.expectStatus()
			.isEqualTo(400)
			.expectHeader()
			.valueEquals("Cache-Control", "no-store")
			.expectHeader()
			.valueEquals("CDN-Cache-Control", "no-store");
		client().get()
			.uri("/actuator/limiter")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("CDN-Cache-Control", "no-store");
	}

	@Test
	void healthWhenReadShouldShowTheLimiterComponentUp() throws Exception {
		JsonNode limiter = read("/actuator/health").get("components").get("limiter");

		assertThat(limiter.get("status").asText()).isEqualTo("UP");
		assertThat(limiter.get("details").get("store").asText()).isEqualTo("memory");
	}

	@Test
	void metersWhenRequestsAreDecidedShouldCountDecisionsStoreLatencySettlementsAndLeases() {
		assertThat(status("/tight", "meg")).isEqualTo(200);
		client().get()
			.uri("/complete")
			.headers((h) -> h.setBasicAuth("meg", "secret"))
			.exchange()
			.expectStatus()
			.isOk();

		assertThat(meters.get("limiter.requests").tag("budget", "tight").tag("outcome", "allowed").counter().count())
			.isGreaterThanOrEqualTo(1);
		assertThat(meters.get("limiter.store.latency").tag("store", "memory").timer().count())
			.isGreaterThanOrEqualTo(2);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(meters.get("limiter.settlements").tag("budget", "tokens").counters())
				.isNotEmpty());
		assertThat(status("/expensive", "meg")).isEqualTo(200);
		// taken by the request, handed back when its response completed
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(
					() -> assertThat(meters.get("limiter.leases.active").tag("budget", "standard").gauge().value())
						.isZero());
	}

	@Test
	void quotaPathWhenUnsetShouldBeNoEndpoint() {
		assertThat(context.getBeanNamesForType(ReactiveQuotaEndpointFilter.class)).isEmpty();
		assertThat(status("/rate-limit", "meg")).isEqualTo(404);
	}

	private int status(String path, String user) {
		return client().get()
			.uri(path)
			.headers((h) -> h.setBasicAuth(user, "secret"))
			.exchange()
			.returnResult(String.class)
			.getStatus()
			.value();
	}

	private JsonNode read(String path) throws Exception {
		byte[] body = client().get()
			.uri(path)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody();
		return json.readTree(body);
	}

	private WebTestClient client() {
		return WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port).build();
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
					User.withUsername("totals").password("{noop}secret").roles("USER").build(),
					User.withUsername("erin").password("{noop}secret").roles("USER").build(),
					User.withUsername("hitter").password("{noop}secret").roles("USER").build(),
					User.withUsername("meg").password("{noop}secret").roles("USER").build());
		}

	}

	@RestController
	static class Handlers {

		@RateLimited(budget = "tight")
		@GetMapping("/tight")
		String tight() {
			return "tight";
		}

		@RateLimited(expensive = true)
		@GetMapping("/expensive")
		String expensive() {
			return "expensive";
		}

		@GetMapping("/complete")
		String complete(ServerWebExchange exchange) {
			ReactiveRateLimitUsage.report(exchange, "tokens", 40);
			return "done";
		}

	}

}
