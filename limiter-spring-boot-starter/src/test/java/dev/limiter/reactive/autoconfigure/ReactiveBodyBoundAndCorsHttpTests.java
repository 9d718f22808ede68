package dev.limiter.reactive.autoconfigure;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application on Reactor Netty over a real port, under BlockHound:
 * {@code limiter.max-request-body} answers 413 for a declared length and for a chunked
 * body (read or ignored by its handler), and a browser on an origin the handler's
 * {@code @CrossOrigin} allows can read the limiter's 429 (its
 * {@code Access-Control-Allow-Origin}, and {@code Retry-After} and the counters exposed);
 * a preflight is never counted.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = ReactiveGuardTestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "limiter.max-request-body=10B",
				"limiter.budgets.anonymous.windows.minute.limit=1", "limiter.routes[0].pattern=/public/upload",
				"limiter.routes[0].exempt=true", "limiter.routes[0].reason=test",
				"limiter.routes[1].pattern=/public/ignore", "limiter.routes[1].exempt=true",
				"limiter.routes[1].reason=test" })
class ReactiveBodyBoundAndCorsHttpTests {

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final ObjectMapper json = new ObjectMapper();

	/** Each test starts a day after the last, its anonymous minute unspent. */
	private static final AtomicLong day = new AtomicLong();

	@LocalServerPort
	int port;

	@Autowired
	@Qualifier("limiterClock")
	MutableClock clock;

	@BeforeEach
	void aNewDay() {
		clock.set(ReactiveGuardTestApplication.NOW.plus(Duration.ofDays(day.incrementAndGet())));
	}

	@Test
	void declaredBodyWhenOverTheBoundShouldBeRefusedWith413() throws Exception {
		assertTooLarge(post("/public/upload", HttpRequest.BodyPublishers.ofString("01234567890")));
	}

	@Test
	void chunkedBodyWhenOverTheBoundShouldBeRefusedWith413() throws Exception {
		assertTooLarge(post("/public/upload", chunked("01234567890")));
	}

	@Test
	void chunkedBodyWhenTheHandlerIgnoresItShouldStillBeRefusedWith413() throws Exception {
		assertTooLarge(post("/public/ignore", chunked("01234567890")));
	}

	@Test
	void bodiesWhenAtTheBoundShouldPassUntouched() throws Exception {
		HttpResponse<String> declared = post("/public/upload", HttpRequest.BodyPublishers.ofString("0123456789"));
		HttpResponse<String> streamed = post("/public/upload", chunked("0123456789"));

		assertThat(declared.statusCode()).isEqualTo(200);
		assertThat(declared.body()).isEqualTo("read 10");
		assertThat(streamed.statusCode()).isEqualTo(200);
		assertThat(streamed.body()).isEqualTo("read 10");
	}

	@Test
	void refusalWhenTheOriginIsAllowedShouldBeReadableByTheBrowser() throws Exception {
		HttpResponse<String> preflight = http.send(HttpRequest.newBuilder(uri("/public/hello"))
			.method("OPTIONS", HttpRequest.BodyPublishers.noBody())
			.header("Origin", "https://app.example")
			.header("Access-Control-Request-Method", "GET")
			.build(), HttpResponse.BodyHandlers.ofString());
		HttpResponse<String> admitted = crossOrigin("https://app.example");
		HttpResponse<String> refused = crossOrigin("https://app.example");

		assertThat(preflight.statusCode()).isEqualTo(200);
		assertThat(admitted.statusCode()).as("the preflight was not counted").isEqualTo(200);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example");
		List<String> exposed = refused.headers()
			.allValues("Access-Control-Expose-Headers")
			.stream()
			.flatMap((value) -> Arrays.stream(value.split(",")))
			.map(String::trim)
			.toList();
		assertThat(exposed).contains("X-Request-Id", "Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining",
				"X-RateLimit-Reset", "RateLimit", "RateLimit-Policy");
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
	}

	@Test
	void refusalWhenTheOriginIsNotAllowedShouldCarryNoCorsHeaders() throws Exception {
		crossOrigin("https://other.example");

		HttpResponse<String> refused = crossOrigin("https://other.example");
		System.out
			.println("DEBUG second " + refused.statusCode() + " " + refused.headers().map() + " " + refused.body());

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
	}

	private HttpResponse<String> crossOrigin(String origin) throws Exception {
		return http.send(HttpRequest.newBuilder(uri("/public/hello")).header("Origin", origin).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private void assertTooLarge(HttpResponse<String> response) throws Exception {
		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json;charset=UTF-8");
		JsonNode problem = json.readTree(response.body());
		assertThat(problem.get("status").asInt()).isEqualTo(413);
		assertThat(problem.get("error").asText()).isEqualTo("request_body_too_large");
		assertThat(problem.get("limit").asLong()).isEqualTo(10);
	}

	private HttpResponse<String> post(String path, HttpRequest.BodyPublisher body) throws Exception {
		return http.send(HttpRequest.newBuilder(uri(path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "text/plain")
			.POST(body)
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static HttpRequest.BodyPublisher chunked(String body) {
		return HttpRequest.BodyPublishers
			.ofInputStream(() -> new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

}
