package dev.limiter.reactive.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.metrics.MicrometerGuardEvents;
import dev.limiter.reactive.ReactiveAuthGuardFilter;
import dev.limiter.reactive.ReactiveAuthenticationOutcomeFilter;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.web.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The authentication guard of a WebFlux application over a real port (Reactor Netty,
 * reactive Spring Security's bearer tokens), in memory, under BlockHound: the servlet
 * guard's block after fifty failures, its 429, its meters, and a credential proven before
 * the block passing it. Time is the limiter's clock; each test starts a day later.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = ReactiveGuardTestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"limiter.budgets.standard.windows.minute.limit=1000",
				"limiter.budgets.anonymous.windows.minute.limit=1000" })
class ReactiveAuthGuardHttpTests {

	private static final AtomicLong day = new AtomicLong();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	int port;

	@Autowired
	@Qualifier("limiterClock")
	MutableClock clock;

	@Autowired
	ApplicationContext context;

	@Autowired
	MeterRegistry meters;

	private Instant start;

	@BeforeEach
	void aNewDay() {
		start = ReactiveGuardTestApplication.NOW.plus(Duration.ofDays(day.incrementAndGet()));
		clock.set(start);
	}

	@Test
	void contextWhenReactiveSecurityRunsShouldHoldBothGuardFilters() {
		assertThat(context.getBeansOfType(ReactiveAuthGuardFilter.class)).hasSize(1);
		assertThat(context.getBeansOfType(ReactiveAuthenticationOutcomeFilter.class)).hasSize(1);
	}

	@Test
	void guardWhenTheFiftiethBadBearerTokenArrivesShouldBlockTheAddressAsTheServletGuardDoes() throws Exception {
		double blocksBefore = meters.counter(MicrometerGuardEvents.BLOCKS).count();
		double refusedBefore = meters.counter(MicrometerGuardEvents.REFUSED, "bound", "block").count();
		for (int i = 1; i <= 50; i++) {
			assertThat(get("/hello", "Bearer sp_bad" + i).statusCode()).as("failure %d", i).isEqualTo(401);
		}
		int lookupsWhenBlocked = ReactiveGuardTestApplication.lookups.get();

		HttpResponse<String> refused = get("/hello", "Bearer " + ReactiveGuardTestApplication.GOOD_TOKEN);

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("1800");
		assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(refused.headers().firstValue("CDN-Cache-Control")).hasValue("no-store");
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json;charset=UTF-8");
		assertThat(refused.headers().firstValue("WWW-Authenticate")).isEmpty();
		JsonNode body = json.readTree(refused.body());
		assertThat(body.get("status").asInt()).isEqualTo(429);
		assertThat(body.get("error").asText()).isEqualTo("auth_rate_limit_exceeded");
		assertThat(body.get("retryAfter").asLong()).isEqualTo(1800);
		assertThat(body.get("bound").asText()).isEqualTo("block");
		assertThat(body.get("resetTime").asText()).isEqualTo(start.plusSeconds(1800).toString());
		assertThat(ReactiveGuardTestApplication.lookups.get()).as("no lookup for a blocked address")
			.isEqualTo(lookupsWhenBlocked);
		assertThat(meters.counter(MicrometerGuardEvents.BLOCKS).count()).isEqualTo(blocksBefore + 1);
		assertThat(meters.counter(MicrometerGuardEvents.REFUSED, "bound", "block").count())
			.isEqualTo(refusedBefore + 1);
	}

	@Test
	void blockWhenItEndsShouldAdmitTheAddressAgainToTheMillisecond() throws Exception {
		fail(50);

		clock.set(start.plus(Duration.ofMinutes(30)).minusMillis(1));
		HttpResponse<String> lastMillisecond = get("/hello", "Bearer " + ReactiveGuardTestApplication.GOOD_TOKEN);
		clock.set(start.plus(Duration.ofMinutes(30)));
		HttpResponse<String> after = get("/hello", "Bearer " + ReactiveGuardTestApplication.GOOD_TOKEN);

		assertThat(lastMillisecond.statusCode()).isEqualTo(429);
		assertThat(lastMillisecond.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(after.statusCode()).isEqualTo(200);
	}

	@Test
	void goodCredentialWhenProvenBeforeTheBlockShouldPassIt() throws Exception {
		assertThat(get("/hello", "Bearer " + ReactiveGuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(200);

		fail(50);

		assertThat(get("/hello", "Bearer " + ReactiveGuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(200);
		assertThat(get("/hello", "Bearer sp_unknown").statusCode()).isEqualTo(429);
	}

	@Test
	void requestWhenWithoutACredentialShouldNotBeGuarded() throws Exception {
		fail(50);

		assertThat(get("/public/hello", null).statusCode()).isEqualTo(200);
	}

	private void fail(int times) throws Exception {
		for (int i = 0; i < times; i++) {
			assertThat(get("/hello", "Bearer sp_bad-" + day.get() + "-" + i).statusCode()).isEqualTo(401);
		}
	}

	private HttpResponse<String> get(String path, String authorization) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.GET();
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
