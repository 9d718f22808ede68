package dev.limiter.web.body;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.guard.GuardTestApplication;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * limiter.max-request-body over a real port, for declared and chunked bodies, read as
 * bytes and as a stream.
 */
@SpringBootTest(classes = GuardTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.max-request-body=1KB")
class RequestBodyLimitHttpTests {

	private static final int BOUND = 1024;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@ParameterizedTest
	@ValueSource(strings = { "/public/echo", "/public/echo-stream" })
	void declaredBodyWhenAtTheBoundShouldPassUntouched(String path) throws Exception {
		byte[] body = randomBytes(BOUND);

		HttpResponse<String> response = post(path, HttpRequest.BodyPublishers.ofByteArray(body));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(BOUND + ":" + sha256(body));
	}

	@ParameterizedTest
	@ValueSource(strings = { "/public/echo", "/public/echo-stream" })
	void chunkedBodyWhenAtTheBoundShouldPassUntouched(String path) throws Exception {
		byte[] body = randomBytes(BOUND);

		HttpResponse<String> response = post(path, chunked(body));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(BOUND + ":" + sha256(body));
	}

	@ParameterizedTest
	@ValueSource(strings = { "/public/echo", "/public/echo-stream" })
	void declaredBodyWhenOverTheBoundShouldBeRefusedWith413(String path) throws Exception {
		HttpResponse<String> response = post(path, HttpRequest.BodyPublishers.ofByteArray(randomBytes(BOUND + 1)));

		assertRefused(response);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/public/echo", "/public/echo-stream" })
	void chunkedBodyWhenOverTheBoundShouldBeRefusedWith413(String path) throws Exception {
		HttpResponse<String> response = post(path, chunked(randomBytes(BOUND + 1)));

		assertRefused(response);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/public/echo", "/public/echo-stream" })
	void chunkedBodyWhenLargeShouldBeCutOffWith413(String path) throws Exception {
		HttpResponse<String> response = post(path, chunked(randomBytes(256 * 1024)));

		assertRefused(response);
	}

	@org.junit.jupiter.api.Test
	void aChunkedBodyOverTheBoundShouldBeRefusedEvenWhenTheHandlerIgnoresIt() throws Exception {
		HttpResponse<String> response = post("/public/ignore", chunked(randomBytes(BOUND + 1)));

		assertRefused(response);
	}

	@org.junit.jupiter.api.Test
	void aChunkedBodyAtTheBoundShouldPassWhenTheHandlerIgnoresIt() throws Exception {
		HttpResponse<String> response = post("/public/ignore", chunked(randomBytes(BOUND)));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("ignored");
	}

	private void assertRefused(HttpResponse<String> response) throws Exception {
		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(response.headers().firstValue("CDN-Cache-Control")).hasValue("no-store");
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
		JsonNode problem = json.readTree(response.body());
		assertThat(problem.get("status").asInt()).isEqualTo(413);
		assertThat(problem.get("error").asText()).isEqualTo("request_body_too_large");
		assertThat(problem.get("limit").asLong()).isEqualTo(BOUND);
	}

	private HttpResponse<String> post(String path, HttpRequest.BodyPublisher body) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/octet-stream")
			.POST(body)
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * An input-stream publisher has no length, so the client sends
	 * {@code Transfer-Encoding: chunked}.
	 */
	private static HttpRequest.BodyPublisher chunked(byte[] body) {
		return HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body));
	}

	private static byte[] randomBytes(int length) {
		byte[] bytes = new byte[length];
		new Random(length).nextBytes(bytes);
		return bytes;
	}

	private static String sha256(byte[] bytes) throws Exception {
		return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
	}

}
