package demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application over a real port, as its users and a browser on another origin reach
 * it. Every request goes through {@link #send}, which adds HTTP Basic credentials and,
 * when given one, an {@code Origin} header: a cross-origin case is one more call.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsumerApplicationTests {

	static final String ORIGIN = "https://app.example";

	static final Credentials ALICE = new Credentials("alice", "alice-secret");

	static final Credentials BOB = new Credentials("bob", "bob-secret");

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Test
	void ordersWhenAliceSpentHerBudgetShouldBeRefusedWith429AndTheLimiterHeadersWhileBobIsServed() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.0.");
		for (int remaining = 2; remaining >= 0; remaining--) {
			HttpResponse<String> admitted = send("/orders", ALICE, null);
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(admitted.body()).contains("\"owner\":\"alice\"");
			assertThat(admitted.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
			assertThat(admitted.headers().firstValue("X-RateLimit-Remaining")).hasValue(String.valueOf(remaining));
		}
		HttpResponse<String> refused = send("/orders", ALICE, null);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
				(seconds) -> assertThat(Integer.parseInt(seconds)).isBetween(1, 60));
		assertThat(refused.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
		assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(refused.body()).contains("\"status\":429").contains("\"budget\":\"standard\"");
		assertThat(send("/orders", BOB, null).statusCode()).isEqualTo(200);
	}

	@Test
	void ordersWhenCrossOriginShouldBeServedWithTheOriginAllowed() throws Exception {
		HttpResponse<String> response = send("/orders", BOB, ORIGIN);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Access-Control-Allow-Origin")).hasValue(ORIGIN);
	}

	@Test
	void ordersWhenNoCredentialsShouldBeUnauthorized() throws Exception {
		assertThat(send("/orders", null, null).statusCode()).isEqualTo(401);
	}

	/**
	 * Sends a GET to the application on its port.
	 * @param path the path
	 * @param credentials sent as HTTP Basic, or {@code null} for none
	 * @param origin sent as {@code Origin}, or {@code null} for a same-origin request
	 * @return the response
	 */
	HttpResponse<String> send(String path, Credentials credentials, String origin) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path));
		if (credentials != null) {
			String basic = credentials.user() + ":" + credentials.password();
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(basic.getBytes(StandardCharsets.UTF_8)));
		}
		if (origin != null) {
			request.header("Origin", origin);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	record Credentials(String user, String password) {
	}

}
