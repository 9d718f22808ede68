package dev.limiter.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.limiter.test.web.MutableClock;
import dev.limiter.test.web.RecordingStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser on another origin reads what the limiter writes (docs/http-contract.md,
 * "Browsers and CORS"), whichever way the application configures CORS (each subclass one
 * way, on the paths it names): on a real port, the limiter's 429, the guard's 429 and the
 * 413 carry the application's CORS headers; they and the admitted responses expose the
 * limiter's headers; a preflight is neither counted nor refused; an origin the
 * application does not allow gets none.
 */
abstract class CorsHttpTest {

	static final String PROPERTIES = "limiter.headers=both";

	static final String LIMIT = "limiter.budgets.anonymous.windows.minute.limit=2";

	static final String GUARD = "limiter.auth-guard.threshold=2";

	static final String BODY = "limiter.max-request-body=1KB";

	private static final String DISALLOWED = "http://elsewhere.example";

	/** What docs/http-contract.md says a browser can read. */
	private static final List<String> LIMITER_HEADERS = List.of("Retry-After", "RateLimit", "RateLimit-Policy",
			"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Window",
			"X-RateLimit-Degraded", "X-RateLimit-Shadow");

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	/**
	 * The GET paths the configuration under test allows
	 * {@value CorsTestApplication#ALLOWED} on.
	 */
	abstract List<String> paths();

	/** The POST paths it allows it on, each with a handler that takes a body. */
	abstract List<String> uploads();

	/**
	 * Whether it exposes {@value CorsTestApplication#APPLICATION_EXPOSED} on
	 * {@code path}.
	 */
	abstract boolean applicationExposes(String path);

	@BeforeEach
	void freshCounters() {
		store.clear();
		clock.set(CorsTestApplication.NOW);
	}

	@Test
	void refusalWhenTheOriginIsAllowedShouldCarryTheApplicationsCorsHeadersAndExposeTheLimiters() throws Exception {
		for (String path : paths()) {
			store.clear();
			send(path, CorsTestApplication.ALLOWED, null);
			send(path, CorsTestApplication.ALLOWED, null);

			HttpResponse<String> refused = send(path, CorsTestApplication.ALLOWED, null);

			assertThat(refused.statusCode()).as(path).isEqualTo(429);
			assertThat(refused.headers().allValues("Access-Control-Allow-Origin")).as(path)
				.containsExactly(CorsTestApplication.ALLOWED);
			assertExposesTheLimitersHeaders(refused, applicationExposes(path));
		}
	}

	@Test
	void admittedWhenTheOriginIsAllowedShouldExposeTheCounterHeaders() throws Exception {
		for (String path : paths()) {
			store.clear();
			HttpResponse<String> admitted = send(path, CorsTestApplication.ALLOWED, null);

			assertThat(admitted.statusCode()).as(path).isEqualTo(200);
			assertThat(admitted.headers().firstValue("Access-Control-Allow-Origin")).as(path)
				.hasValue(CorsTestApplication.ALLOWED);
			assertThat(admitted.headers().firstValue("X-RateLimit-Remaining")).as(path).hasValue("1");
			assertExposesTheLimitersHeaders(admitted, applicationExposes(path));
		}
	}

	@Test
	void preflightWhenSentBetweenRequestsOrWithTheKeySpentShouldNeitherBeCountedNorRefused() throws Exception {
		for (String path : paths()) {
			store.clear();
			assertThat(send(path, CorsTestApplication.ALLOWED, null).headers().firstValue("X-RateLimit-Remaining"))
				.as(path)
				.hasValue("1");
			for (int i = 0; i < 3; i++) {
				assertThat(preflight(path).statusCode()).as("%s preflight %d", path, i).isEqualTo(200);
			}
			HttpResponse<String> last = send(path, CorsTestApplication.ALLOWED, null);
			assertThat(last.statusCode()).as("%s: the preflights counted nothing", path).isEqualTo(200);
			assertThat(last.headers().firstValue("X-RateLimit-Remaining")).as(path).hasValue("0");

			HttpResponse<String> spent = preflight(path);

			assertThat(spent.statusCode()).as("%s: a preflight with the key spent", path).isEqualTo(200);
			assertThat(spent.headers().firstValue("Access-Control-Allow-Origin")).as(path)
				.hasValue(CorsTestApplication.ALLOWED);
			assertThat(send(path, CorsTestApplication.ALLOWED, null).statusCode()).as(path).isEqualTo(429);
		}
	}

	@Test
	void refusalWhenTheOriginIsNotAllowedShouldCarryNoCorsHeader() throws Exception {
		for (String path : paths()) {
			store.clear();
			send(path, CorsTestApplication.ALLOWED, null);
			send(path, CorsTestApplication.ALLOWED, null);

			HttpResponse<String> refused = send(path, DISALLOWED, null);

			// Spring Security's CORS filter refuses it (403) before the limiter runs
			assertThat(refused.statusCode()).as(path).isIn(429, 403);
			assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).as(path).isEmpty();
			assertThat(refused.headers().firstValue("Access-Control-Expose-Headers")).as(path).isEmpty();
		}
	}

	@Test
	void guardRefusalWhenTheOriginIsAllowedShouldCarryTheCorsHeaders() throws Exception {
		String path = paths().get(0);
		for (int i = 0; i < 2; i++) {
			assertThat(send(path, CorsTestApplication.ALLOWED, "Bearer bad").statusCode()).as("failure %d", i)
				.isEqualTo(401);
		}

		HttpResponse<String> blocked = send(path, CorsTestApplication.ALLOWED, "Bearer bad");

		assertThat(blocked.statusCode()).isEqualTo(429);
		assertThat(blocked.body()).contains("auth_rate_limit_exceeded");
		assertThat(blocked.headers().allValues("Access-Control-Allow-Origin"))
			.containsExactly(CorsTestApplication.ALLOWED);
		assertExposesTheLimitersHeaders(blocked, applicationExposes(path));
		assertThat(preflight(path).statusCode()).as("a preflight (no Authorization) from the blocked address")
			.isEqualTo(200);
	}

	@Test
	void bodyTooLargeWhenTheOriginIsAllowedShouldCarryTheCorsHeaders() throws Exception {
		for (String path : uploads()) {
			try (Socket socket = new Socket("127.0.0.1", port)) {
				socket.setSoTimeout(10_000);
				socket.getOutputStream()
					.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nOrigin: " + CorsTestApplication.ALLOWED
							+ "\r\nContent-Type: application/octet-stream\r\nContent-Length: 2000\r\n\r\n")
						.getBytes(StandardCharsets.ISO_8859_1));
				String head = readHead(socket.getInputStream());

				assertThat(head).as(path).startsWith("HTTP/1.1 413 ");
				assertThat(head).as(path)
					.containsIgnoringCase("Access-Control-Allow-Origin: " + CorsTestApplication.ALLOWED);
				assertThat(head).as(path).containsIgnoringCase("Access-Control-Expose-Headers: ");
			}
		}
	}

	private static void assertExposesTheLimitersHeaders(HttpResponse<String> response, boolean applicationExposes) {
		List<String> exposed = new ArrayList<>();
		for (String value : response.headers().allValues("Access-Control-Expose-Headers")) {
			Arrays.stream(value.split(",")).map(String::trim).forEach(exposed::add);
		}
		assertThat(exposed).as("exposed").containsAll(LIMITER_HEADERS);
		assertThat(exposed.stream().map(name -> name.toLowerCase(Locale.ROOT))).as("each name once")
			.doesNotHaveDuplicates();
		if (applicationExposes) {
			assertThat(exposed).as("the application's own").contains(CorsTestApplication.APPLICATION_EXPOSED);
		}
	}

	private HttpResponse<String> send(String path, String origin, String authorization) throws Exception {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.GET()
			.header("Origin", origin);
		if (authorization != null) {
			builder.header("Authorization", authorization);
		}
		return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> preflight(String path) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.method("OPTIONS", HttpRequest.BodyPublishers.noBody())
			.header("Origin", CorsTestApplication.ALLOWED)
			.header("Access-Control-Request-Method", "GET")
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) >= 0) {
			head.write(b);
			if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
				break;
			}
		}
		return head.toString(StandardCharsets.ISO_8859_1);
	}

}
