package dev.limiter.boot4;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.reactive.ReactiveQuotaEndpointFilter;
import dev.limiter.test.reactive.BlockHoundExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator has of a WebFlux application on Boot 4, over a real port, in memory:
 * the {@code limiter} endpoint with its most-refused callers and {@code no-store}
 * answers, the health component, the decision meters, and the quota endpoint's answer to
 * an anonymous caller.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = Boot4ReactiveOperationsTests.ReactiveApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "limiter.auth-guard.enabled=false",
				"limiter.budgets.anonymous.windows.minute.limit=2",
				"limiter.budgets.anonymous.windows.minute.duration=1m", "limiter.routes[0].pattern=/actuator/**",
				"limiter.routes[0].exempt=true", "limiter.routes[0].reason=operations",
				"limiter.quota-endpoint.path=/rate-limit", "management.endpoints.web.exposure.include=limiter,health",
				"management.endpoint.health.show-details=always", "management.health.redis.enabled=false" })
class Boot4ReactiveOperationsTests {

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@Autowired
	MeterRegistry meters;

	@Test
	void operationsWhenRequestsAreRefusedOnBoot4ReactiveShouldShowInTheEndpointHealthAndMeters() {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.");
		for (int i = 0; i < 4; i++) {
			client().get().uri("/links").exchange();
		}

		client().get()
			.uri("/actuator/limiter")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.budgets.anonymous.totals.refused")
			.isEqualTo(2);
		client().get()
			.uri("/actuator/limiter/refused")
			.exchange()
			.expectBody()
			.jsonPath("$.callers[0].refusals")
			.isEqualTo(2)
			.jsonPath("$.callers[0].key")
			.value((String key) -> assertThat(key).startsWith("a:"));
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
			.uri("/actuator/health")
			.exchange()
			.expectBody()
			.jsonPath("$.components.limiter.status")
			.isEqualTo("UP");
		assertThat(meters.get("limiter.requests").tag("outcome", "refused").counter().count()).isEqualTo(2);
	}

	@Test
	void quotaEndpointWhenAnonymousOnBoot4ReactiveShouldAnswer401() {
		assertThat(context.getBeansOfType(ReactiveQuotaEndpointFilter.class)).hasSize(1);
		client().get()
			.uri("/rate-limit")
			.exchange()
			.expectStatus()
			.isEqualTo(401)
			.expectHeader()
			.valueEquals("Content-Type", "application/problem+json;charset=UTF-8");
	}

	private WebTestClient client() {
		return WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port).build();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(Handlers.class)
	static class ReactiveApplication {

		/**
		 * Time stands still mid-minute: no window boundary falls between the test's
		 * calls, so the refusals it counts are exact. No test here waits for a window to
		 * run out.
		 */
		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME, defaultCandidate = false)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
		}

	}

	@RestController
	static class Handlers {

		@GetMapping("/links")
		String links() {
			return "links";
		}

	}

}
