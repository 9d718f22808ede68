package dev.limiter.resilience;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/operations.md and ADR 0004 against a real redis-server that is really stopped,
 * frozen and restarted: every request is still answered, the degraded mode is visible and
 * bounded, and the limiter heals by itself.
 */
@ExtendWith(OutputCaptureExtension.class)
@UsesRedisServer
class StoreFailureTests {

	private static final String DEGRADED_WARNING = "Rate limiter is DEGRADED";

	private static final long TIMEOUT_MILLIS = 500;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ObjectMapper json = new ObjectMapper();

	private RedisServerProcess redis;

	private ConfigurableApplicationContext app;

	private int port;

	@BeforeEach
	void startRedis() {
		redis = RedisServerProcess.start();
	}

	@AfterEach
	void stopEverything() {
		if (app != null) {
			app.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	private void startApp(String... extraProperties) throws Exception {
		List<String> properties = new ArrayList<>(List.of("server.port=0", "limiter.store=redis",
				"limiter.redis.timeout=" + TIMEOUT_MILLIS + "ms", "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=" + redis.port(),
				"resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=1s",
				"management.endpoints.web.exposure.include=health", "management.endpoint.health.show-details=always",
				"management.health.redis.enabled=false", "limiter.routes[0].pattern=/actuator/**",
				"limiter.routes[0].exempt=true", "limiter.routes[0].reason=operations probes"));
		properties.addAll(List.of(extraProperties));
		app = new SpringApplicationBuilder(StoreFailureTestApplication.class).web(WebApplicationType.SERVLET)
			.properties(properties.toArray(String[]::new))
			.run();
		port = ((WebServerApplicationContext) app).getWebServer().getPort();
		awaitAuthoritative();
	}

	/**
	 * A cold JVM on a busy machine may miss the timeout on its very first decision; the
	 * tests start from a warm, authoritative limiter so that what they see is the fault
	 * they make.
	 */
	private void awaitAuthoritative() throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (header(get("/ping"), "X-RateLimit-Degraded") != null) {
			assertThat(System.nanoTime()).as("authoritative within 20 s of start-up").isLessThan(deadline);
			Thread.sleep(50);
		}
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.GET()
			.build();
		return http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static String header(HttpResponse<?> response, String name) {
		return response.headers().firstValue(name).orElse(null);
	}

	private JsonNode limiterHealth() throws Exception {
		return json.readTree(get("/actuator/health").body()).path("components").path("limiter");
	}

	@Test
	void limiterWhenRedisStopsMidTrafficShouldAnswerEveryRequestDegradedAndBounded() throws Exception {
		startApp();
		for (int i = 0; i < 10; i++) {
			HttpResponse<String> response = get("/ping");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(header(response, "X-RateLimit-Degraded")).isNull();
		}

		redis.stop();
		List<HttpResponse<String>> during = new ArrayList<>();
		for (int i = 0; i < 61; i++) {
			during.add(get("/ping"));
		}

		assertThat(during).allSatisfy(r -> {
			assertThat(r.statusCode()).isLessThan(500);
			assertThat(header(r, "X-RateLimit-Degraded")).isEqualTo("true");
		});
		assertThat(during.subList(0, 60)).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
		HttpResponse<String> sixtyFirst = during.get(60);
		assertThat(sixtyFirst.statusCode()).as("the fallback still bounds the anonymous minute").isEqualTo(429);
		assertThat(header(sixtyFirst, "Retry-After")).isEqualTo("55");
		assertThat(header(sixtyFirst, "Cache-Control")).isEqualTo("no-store");
	}

	@Test
	void limiterWhenRedisIsWedgedShouldCostAtMostTheTimeoutThenNothingOnceTheBreakerOpens() throws Exception {
		startApp("resilience4j.circuitbreaker.instances.limiter.wait-duration-in-open-state=60s");
		assertThat(get("/ping").statusCode()).isEqualTo(200);

		redis.pause();
		try {
			List<Long> wedged = new ArrayList<>();
			while (wedged.size() < 10
					&& !limiterHealth().path("details").path("circuitBreaker").asText().equals("OPEN")) {
				long start = System.nanoTime();
				HttpResponse<String> response = get("/ping");
				wedged.add(Duration.ofNanos(System.nanoTime() - start).toMillis());
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(header(response, "X-RateLimit-Degraded")).isEqualTo("true");
			}
			assertThat(limiterHealth().path("details").path("circuitBreaker").asText())
				.as("a handful of failures opens the breaker")
				.isEqualTo("OPEN");
			assertThat(wedged).as("the breaker opened after a handful of calls").hasSizeBetween(1, 5);
			List<Long> open = new ArrayList<>();
			for (int i = 0; i < 20; i++) {
				long start = System.nanoTime();
				HttpResponse<String> response = get("/ping");
				open.add(Duration.ofNanos(System.nanoTime() - start).toMillis());
				assertThat(header(response, "X-RateLimit-Degraded")).isEqualTo("true");
			}

			assertThat(wedged).as("each waits the timeout, never much more")
				.allSatisfy(ms -> assertThat(ms).isBetween(TIMEOUT_MILLIS - 50, TIMEOUT_MILLIS + 1_500));
			assertThat(open).as("an open breaker does not call the store at all")
				.allSatisfy(ms -> assertThat(ms).isLessThan(TIMEOUT_MILLIS - 100));
		}
		finally {
			redis.resume();
		}
	}

	@Test
	void countersWhenRedisRestartsShouldBeAuthoritativeAgainWithoutRestartingTheApp() throws Exception {
		startApp();
		assertThat(header(get("/ping"), "X-RateLimit-Degraded")).isNull();
		redis.stop();
		for (int i = 0; i < 6; i++) {
			assertThat(header(get("/ping"), "X-RateLimit-Degraded")).isEqualTo("true");
		}
		assertThat(limiterHealth().path("details").path("mode").asText()).isEqualTo("degraded");

		redis.restart();
		HttpResponse<String> healed = null;
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (System.nanoTime() < deadline) {
			HttpResponse<String> response = get("/ping");
			if (header(response, "X-RateLimit-Degraded") == null) {
				healed = response;
				break;
			}
			Thread.sleep(100);
		}

		assertThat(healed).as("healed within the breaker's wait").isNotNull();
		// the outage ends once the breaker has closed: its half-open probes (3 by
		// default) have all been answered
		HttpResponse<String> lastProbe = healed;
		for (int probe = 2; probe <= 3; probe++) {
			lastProbe = get("/ping");
			assertThat(header(lastProbe, "X-RateLimit-Degraded")).isNull();
		}
		assertThat(limiterHealth().path("details").path("mode").asText()).isEqualTo("authoritative");
		long keysInRedis = (Long) redis.call("DBSIZE");
		assertThat(keysInRedis).as("counting in Redis again").isPositive();
		HttpResponse<String> next = get("/ping");
		assertThat(header(next, "X-RateLimit-Degraded")).isNull();
		assertThat(Long.parseLong(header(next, "X-RateLimit-Remaining")))
			.isEqualTo(Long.parseLong(header(lastProbe, "X-RateLimit-Remaining")) - 1);
	}

	@Test
	void healthWhenRedisRestartsWithoutTrafficShouldShowAuthoritativeAgain() throws Exception {
		startApp();
		redis.stop();
		for (int i = 0; i < 6; i++) {
			assertThat(header(get("/ping"), "X-RateLimit-Degraded")).isEqualTo("true");
		}
		JsonNode degraded = limiterHealth();
		assertThat(degraded.path("details").path("mode").asText()).isEqualTo("degraded");
		assertThat(degraded.path("details").path("circuitBreaker").asText()).isEqualTo("OPEN");

		redis.restart();
		// from here on only health reads, which the exempt /actuator/** never counts
		JsonNode healed = limiterHealth();
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!healed.path("details").path("mode").asText().equals("authoritative") && System.nanoTime() < deadline) {
			Thread.sleep(200);
			healed = limiterHealth();
		}

		assertThat(healed.path("details").path("mode").asText()).as("authoritative without a request")
			.isEqualTo("authoritative");
		assertThat(healed.path("details").path("circuitBreaker").asText()).isEqualTo("CLOSED");
		assertThat(app.getBean(MeterRegistry.class).get("limiter.degraded").gauge().value()).isZero();
		HttpResponse<String> next = get("/ping");
		assertThat(header(next, "X-RateLimit-Degraded")).isNull();
	}

	@Test
	void budgetWhenItFailsClosedShouldAnswer503WithRetryAfterDuringTheOutage() throws Exception {
		startApp("limiter.budgets.anonymous.on-store-failure=closed");
		assertThat(get("/ping").statusCode()).isEqualTo(200);

		redis.stop();
		HttpResponse<String> refused = get("/ping");

		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(header(refused, "Retry-After")).isEqualTo("1");
		assertThat(header(refused, "Cache-Control")).isEqualTo("no-store");
		assertThat(header(refused, "CDN-Cache-Control")).isEqualTo("no-store");
		assertThat(header(refused, "Content-Type")).startsWith("application/problem+json");
		JsonNode body = json.readTree(refused.body());
		assertThat(body.path("status").asInt()).isEqualTo(503);
		assertThat(body.path("error").asText()).isEqualTo("rate_limit_store_unavailable");
		assertThat(body.path("budget").asText()).isEqualTo("anonymous");
	}

	@Test
	void healthWhenTheStoreStateChangesShouldShowEachStateAndStay200WhileDegraded() throws Exception {
		startApp();
		get("/ping");
		JsonNode authoritative = limiterHealth();
		assertThat(authoritative.path("status").asText()).isEqualTo("UP");
		assertThat(authoritative.path("details").path("store").asText()).isEqualTo("redis");
		assertThat(authoritative.path("details").path("mode").asText()).isEqualTo("authoritative");
		assertThat(authoritative.path("details").path("circuitBreaker").asText()).isEqualTo("CLOSED");
		assertThat(authoritative.path("details").path("fallbackKeys").asInt()).isZero();
		MeterRegistry meters = app.getBean(MeterRegistry.class);
		assertThat(meters.get("limiter.degraded").gauge().value()).isZero();

		redis.stop();
		for (int i = 0; i < 6; i++) {
			get("/ping");
		}
		HttpResponse<String> aggregate = get("/actuator/health");
		JsonNode degraded = json.readTree(aggregate.body()).path("components").path("limiter");

		assertThat(aggregate.statusCode()).isEqualTo(200);
		assertThat(json.readTree(aggregate.body()).path("status").asText()).isEqualTo("UP");
		assertThat(degraded.path("status").asText()).isEqualTo("UP");
		assertThat(degraded.path("details").path("mode").asText()).isEqualTo("degraded");
		assertThat(degraded.path("details").path("circuitBreaker").asText()).isEqualTo("OPEN");
		assertThat(degraded.path("details").path("fallbackKeys").asInt()).isEqualTo(1);
		assertThat(meters.get("limiter.degraded").gauge().value()).isEqualTo(1);
		assertThat(meters.get("limiter.fallback.keys").gauge().value()).isEqualTo(1);
		assertThat(meters.get("resilience4j.circuitbreaker.state")
			.tag("name", "limiter")
			.tag("state", "open")
			.gauge()
			.value()).as("Resilience4j's own breaker meters").isEqualTo(1);
	}

	@Test
	void outageWhenAThousandRequestsArriveShouldLogExactlyOneWarning(CapturedOutput output) throws Exception {
		startApp("limiter.budgets.anonymous.windows.minute.limit=100000",
				"limiter.budgets.anonymous.windows.hour.limit=100000");
		int before = output.getAll().length();

		redis.stop();
		for (int i = 0; i < 1_000; i++) {
			assertThat(get("/ping").statusCode()).isEqualTo(200);
		}

		assertThat(linesSince(output, before).filter(line -> line.contains(DEGRADED_WARNING))).hasSize(1)
			.allSatisfy(line -> assertThat(line).contains("WARN"));
		assertThat(linesSince(output, before).filter(line -> line.contains(" WARN ") && line.contains("dev.limiter")))
			.hasSize(1);
	}

	private static Stream<String> linesSince(CapturedOutput output, int offset) {
		return output.getAll().substring(offset).lines();
	}

}
