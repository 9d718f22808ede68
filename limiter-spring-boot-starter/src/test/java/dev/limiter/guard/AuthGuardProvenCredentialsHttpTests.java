package dev.limiter.guard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a success proves, over HTTP, in memory and on a real redis-server: a success
 * counts only when the limiter admits the request too, it clears none of the address's
 * failures, and a credential proven from an address passes that address's block while
 * unknown credentials are refused before their lookup; an operator lifts a block with a
 * {@code DELETE} on the endpoint. {@code /trial} is counted in a budget of one request an
 * hour (every good token authenticates as one principal, so they share it).
 */
@UsesRedisServer
class AuthGuardProvenCredentialsHttpTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final String GUESS = "Bearer sp_wrong-";

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@ParameterizedTest
	@ValueSource(strings = { "memory", "redis" })
	void guesserWhenItsOwnTokenIsRefusedByTheLimiterBetweenGuessesShouldStillBeBlockedAfterFiftyFailures(String store)
			throws Exception {
		try (ConfigurableApplicationContext app = start(store)) {
			String trial = good("trial");
			int unauthorized = 0;
			int blocked = 0;
			for (int round = 0; round < 12; round++) {
				for (int i = 0; i < 48; i++) {
					HttpResponse<String> guess = get(app, "/hello", GUESS + round + "-" + i);
					if (guess.statusCode() == 401) {
						unauthorized++;
					}
					else if (guess.body().contains("\"error\":\"auth_rate_limit_exceeded\"")) {
						blocked++;
					}
				}
				int ownToken = get(app, "/trial", trial).statusCode();
				assertThat(ownToken).as("round %d: the limiter admits the first, then refuses", round)
					.isEqualTo(round == 0 ? 200 : 429);
			}

			assertThat(unauthorized).as("guesses looked up").isEqualTo(50);
			assertThat(blocked).isEqualTo(12 * 48 - 50);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "memory", "redis" })
	void blockWhenACredentialWasProvenFromTheAddressShouldLetItThroughAndRefuseUnknownOnesBeforeTheirLookup(
			String store) throws Exception {
		try (ConfigurableApplicationContext app = start(store)) {
			String proven = good("proven");
			String refusedByTheLimiter = good("refused");
			assertThat(get(app, "/trial", proven).statusCode()).isEqualTo(200);
			assertThat(get(app, "/trial", refusedByTheLimiter).statusCode()).as("the trial budget is spent")
				.isEqualTo(429);
			for (int i = 0; i < 50; i++) {
				assertThat(get(app, "/hello", GUESS + i).statusCode()).isEqualTo(401);
			}
			int lookupsWhenBlocked = GuardTestApplication.lookups.get();

			HttpResponse<String> provenThroughTheBlock = get(app, "/hello", proven);
			HttpResponse<String> unknown = get(app, "/hello", good("unknown"));
			HttpResponse<String> onlyRefusedBefore = get(app, "/hello", refusedByTheLimiter);
			HttpResponse<String> guess = get(app, "/hello", GUESS + "after");

			assertThat(provenThroughTheBlock.statusCode()).isEqualTo(200);
			assertThat(GuardTestApplication.lookups.get()).as("only the proven credential was looked up")
				.isEqualTo(lookupsWhenBlocked + 1);
			for (HttpResponse<String> refused : new HttpResponse[] { unknown, onlyRefusedBefore, guess }) {
				assertThat(refused.statusCode()).isEqualTo(429);
				assertThat(refused.headers().firstValue("Retry-After")).hasValue("1800");
				assertThat(refused.body()).contains("\"error\":\"auth_rate_limit_exceeded\"");
			}
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "memory", "redis" })
	void deleteOnTheEndpointWhenTheAddressIsBlockedShouldLiftTheBlock(String store) throws Exception {
		try (ConfigurableApplicationContext app = start(store)) {
			String operator = good("operator");
			assertThat(get(app, "/hello", operator).statusCode()).isEqualTo(200);
			for (int i = 0; i < 50; i++) {
				assertThat(get(app, "/hello", GUESS + i).statusCode()).isEqualTo(401);
			}
			assertThat(get(app, "/hello", good("unknown")).statusCode()).isEqualTo(429);

			HttpResponse<String> state = send(app, "GET", "/actuator/limiter/addresses/127.0.0.1", operator);
			HttpResponse<String> lifted = send(app, "DELETE", "/actuator/limiter/addresses/127.0.0.1", operator);
			HttpResponse<String> again = send(app, "DELETE", "/actuator/limiter/addresses/127.0.0.1", operator);
			HttpResponse<String> malformed = send(app, "DELETE", "/actuator/limiter/addresses/not-an-address",
					operator);

			assertThat(state.statusCode()).isEqualTo(200);
			assertThat(state.body()).contains("\"provenCredentials\":1").contains("\"blockedUntil\":\"");
			assertThat(lifted.statusCode()).isEqualTo(200);
			assertThat(lifted.body()).contains("\"wasBlocked\":true").doesNotContain("127.0.0.1");
			assertThat(again.body()).contains("\"wasBlocked\":false");
			assertThat(malformed.statusCode()).isEqualTo(400);
			assertThat(malformed.body()).contains("malformed_address").doesNotContain("not-an-address");
			assertThat(get(app, "/hello", good("unknown")).statusCode()).isEqualTo(200);
			assertThat(get(app, "/hello", GUESS + "after").statusCode()).as("counted from zero again").isEqualTo(401);
		}
	}

	private static String good(String name) {
		return "Bearer sp_good-" + name + "-" + UUID.randomUUID();
	}

	private ConfigurableApplicationContext start(String store) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(GuardTestApplication.class)
			.properties("server.port=0", "limiter.store=" + store, "spring.data.redis.host=" + redis.server().host(),
					"spring.data.redis.port=" + redis.port(), "limiter.redis.key-prefix=proven-" + UUID.randomUUID(),
					"limiter.budgets.trial.windows.hour.limit=1", "limiter.budgets.trial.windows.hour.duration=1h",
					"limiter.routes[0].pattern=/trial", "limiter.routes[0].budget=trial",
					"limiter.routes[1].pattern=/actuator/**", "limiter.routes[1].exempt=true",
					"limiter.routes[1].reason=operations", "management.endpoints.web.exposure.include=limiter")
			.run();
		context.getBean("limiterClock", MutableClock.class)
			.set(Instant.ofEpochMilli(System.currentTimeMillis() / 1000 * 1000));
		return context;
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String path, String authorization)
			throws Exception {
		return send(context, "GET", path, authorization);
	}

	private HttpResponse<String> send(ConfigurableApplicationContext context, String method, String path,
			String authorization) throws Exception {
		int port = ((ServletWebServerApplicationContext) context).getWebServer().getPort();
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", authorization)
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
