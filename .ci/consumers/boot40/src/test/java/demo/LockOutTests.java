package demo;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The authentication guard as a user behind one address meets it: a guesser's wrong
 * passwords block the address, yet a user who already signed in from it is still served,
 * while a user who never did is refused without a password check.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.auth-guard.threshold=5")
class LockOutTests {

	@LocalServerPort
	int port;

	@Test
	void blockedAddressWhenAUserSignedInFromItBeforeShouldStillServeThatUserOnly() throws Exception {
		ApiClient client = new ApiClient(this.port);
		assertThat(client.send("/orders", ApiClient.ALICE, null).statusCode()).isEqualTo(200);
		ApiClient.Credentials guesser = new ApiClient.Credentials("bob", "guess");
		for (int i = 0; i < 5; i++) {
			assertThat(client.send("/orders", guesser, null).statusCode()).isEqualTo(401);
		}

		HttpResponse<String> blocked = client.send("/orders", guesser, null);
		assertThat(blocked.statusCode()).isEqualTo(429);
		assertThat(blocked.body()).contains("auth_rate_limit_exceeded");
		assertThat(client.send("/orders", ApiClient.ALICE, null).statusCode()).isEqualTo(200);
		assertThat(client.send("/orders", ApiClient.BOB, null).statusCode()).isEqualTo(429);
	}

}
