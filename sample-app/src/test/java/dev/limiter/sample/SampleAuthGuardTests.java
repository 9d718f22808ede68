package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard on a freshly started sample: its bearer filter answers a bad token with a 401
 * of its own (no authentication event), and the failure is still counted before that 401
 * reaches the client, so guesses sent one after another are looked up exactly
 * {@code threshold} times.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.auth-guard.threshold=5", "sample.expensive-delay=0ms" })
class SampleAuthGuardTests {

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	private int port;

	@Test
	void guessesWhenSentOneAfterAnotherRightAfterStartUpShouldGetFive401sThen429() throws Exception {
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			HttpRequest guess = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/s/recall"))
				.timeout(Duration.ofSeconds(30))
				.header("Authorization", "Bearer sp_" + String.format("%032d", i))
				.POST(HttpRequest.BodyPublishers.noBody())
				.build();
			statuses.add(http.send(guess, HttpResponse.BodyHandlers.ofString()).statusCode());
		}
		assertThat(statuses).containsExactly(401, 401, 401, 401, 401, 429, 429);
	}

}
