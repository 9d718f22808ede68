package dev.limiter.boot4;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Boot 4 application with the Boot 4 starter and the same YAML a Boot 3.5 application
 * writes, over a real port on a real redis-server. The server is stopped by the last
 * test, which checks the degraded mode.
 */
@SpringBootTest(classes = Boot4TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.store=redis", "limiter.redis.key-prefix=boot4e2e", "limiter.redis.timeout=500ms",
				"limiter.headers=both", "limiter.budgets.anonymous.windows.minute.limit=3",
				"resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=1s",
				"limiter.routes[0].pattern=/actuator/**", "limiter.routes[0].exempt=true",
				"limiter.routes[0].reason=operations probes",
				"management.endpoints.web.exposure.include=health,limiter",
				"management.endpoint.health.show-details=always", "management.health.redis.enabled=false" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@UsesRedisServer
class Boot4StarterEndToEndTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	@Qualifier("limiterClock")
	Clock limiterClock;

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", () -> redis.port());
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.GET()
			.build();
		return http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@Test
	@Order(1)
	void requestWhenOverBudgetOnBoot4ShouldBeRefusedWithTheSameHeadersAndBody() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.");
		HttpResponse<String> first = get("/ping");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
		assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("2");
		assertThat(first.headers().firstValue("RateLimit-Policy")).isPresent();
		assertThat(first.headers().firstValue("RateLimit")).isPresent();
		assertThat(first.headers().firstValue("X-RateLimit-Degraded")).isEmpty();
		get("/ping");
		get("/ping");

		HttpResponse<String> refused = get("/ping");

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After"))
			.hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
		assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(refused.headers().firstValue("RateLimit")).hasValueSatisfying(v -> assertThat(v).contains("r=0"));
		assertThat(refused.headers().firstValue("Content-Type"))
			.hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
		assertThat(refused.headers().firstValue("Cache-Control"))
			.hasValueSatisfying(v -> assertThat(v).contains("no-store"));
		assertThat(refused.body()).contains("\"status\":429").contains("\"budget\":\"anonymous\"");
		// Counted in the application's Redis, not in this JVM.
		assertThat(((Number) redis.server().call("DBSIZE")).longValue()).isPositive();
	}

	@Test
	@Order(2)
	void healthWhenOnBoot4ShouldShowTheLimiterComponent() throws Exception {
		HttpResponse<String> health = get("/actuator/health");

		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).contains("\"limiter\"")
			.contains("\"store\":\"redis\"")
			.contains("\"mode\":\"authoritative\"")
			.contains("\"circuitBreaker\":\"CLOSED\"")
			.contains("\"fallbackKeys\"");
	}

	@Test
	@Order(3)
	void limiterEndpointWhenOnBoot4ShouldAnswer() throws Exception {
		HttpResponse<String> endpoint = get("/actuator/limiter");

		assertThat(endpoint.statusCode()).isEqualTo(200);
		assertThat(endpoint.body()).contains("\"store\":\"redis\"").contains("\"anonymous\"");
	}

	@Test
	@Order(4)
	void limiterWhenRedisStopsOnBoot4ShouldDegradeWithoutServerErrors() throws Exception {
		// The next minute, so that the caller refused above is decided afresh and not
		// from its known refusal.
		((MutableClock) limiterClock).set(Instant.parse("2030-01-01T00:01:05Z"));
		redis.server().stop();
		List<Integer> statuses = new ArrayList<>();
		String degraded = null;
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (degraded == null && System.nanoTime() < deadline) {
			HttpResponse<String> response = get("/ping");
			statuses.add(response.statusCode());
			degraded = response.headers().firstValue("X-RateLimit-Degraded").orElse(null);
		}

		assertThat(degraded).as("statuses while redis is down: %s", statuses).isEqualTo("true");
		assertThat(statuses).allSatisfy(status -> assertThat(status).isLessThan(500));
		assertThat(get("/actuator/health").body()).contains("\"mode\":\"degraded\"");
	}

}
