package dev.limiter.guard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.limiter.core.StoreMode;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of one application on one real redis-server: a block started on one holds
 * on the other.
 */
@UsesRedisServer
class AuthGuardRedisTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	void blockWhenTwoApplicationContextsShareOneRedisShouldHoldAcrossBoth() throws Exception {
		Instant now = Instant.ofEpochMilli(System.currentTimeMillis() / 1000 * 1000);
		try (ConfigurableApplicationContext first = start(now); ConfigurableApplicationContext second = start(now)) {
			assertThat(first.getBean("limiterStore")).isInstanceOfSatisfying(FailOpenRateLimitStore.class,
					store -> assertThat(store.name()).isEqualTo("redis"));
			for (int i = 0; i < 25; i++) {
				assertThat(get(first, "Bearer sp_wrong-first-" + i).statusCode()).isEqualTo(401);
				assertThat(get(second, "Bearer sp_wrong-second-" + i).statusCode()).isEqualTo(401);
			}

			clock(second).set(now.plusSeconds(60));
			HttpResponse<String> refusedBySecond = get(second, "Bearer " + GuardTestApplication.GOOD_TOKEN);
			clock(first).set(now.plus(Duration.ofMinutes(30)).minusMillis(1));
			HttpResponse<String> refusedByFirst = get(first, "Bearer " + GuardTestApplication.GOOD_TOKEN);
			clock(second).set(now.plus(Duration.ofMinutes(30)));
			HttpResponse<String> admittedBySecond = get(second, "Bearer " + GuardTestApplication.GOOD_TOKEN);

			assertThat(refusedBySecond.statusCode()).isEqualTo(429);
			assertThat(refusedBySecond.headers().firstValue("Retry-After")).hasValue("1740");
			assertThat(refusedBySecond.body()).contains("\"error\":\"auth_rate_limit_exceeded\"");
			assertThat(refusedByFirst.statusCode()).isEqualTo(429);
			assertThat(refusedByFirst.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(admittedBySecond.statusCode()).isEqualTo(200);
			assertThat(List.of(first, second)).allSatisfy(
					instance -> assertThat(instance.getBean("limiterStore", FailOpenRateLimitStore.class).mode())
						.as("decided by Redis, not by a fallback")
						.isEqualTo(StoreMode.AUTHORITATIVE));
		}
	}

	@Test
	void blockWhenThisInstanceHasNotSeenTheAddressShouldRefuseBeforeAnyVerdictShows() throws Exception {
		Instant now = Instant.ofEpochMilli(System.currentTimeMillis() / 1000 * 1000);
		try (ConfigurableApplicationContext blocking = start(now, "unseen")) {
			for (int i = 0; i < 50; i++) {
				assertThat(get(blocking, "Bearer sp_wrong-" + i).statusCode()).isEqualTo(401);
			}
			// A new instance knows nothing of the address: its first lookups run while
			// their reservations travel, and only the reservations' answers show.
			try (ConfigurableApplicationContext unseen = start(now.plusSeconds(10), "unseen")) {
				int handledBefore = GuardTestApplication.handled.get();

				HttpResponse<String> good = get(unseen, "Bearer " + GuardTestApplication.GOOD_TOKEN);
				HttpResponse<String> wrong = get(unseen, "Bearer sp_wrong-on-the-new-instance");

				assertThat(List.of(good, wrong)).allSatisfy(refused -> {
					assertThat(refused.statusCode()).isEqualTo(429);
					assertThat(refused.headers().firstValue("Retry-After")).hasValue("1790");
					assertThat(refused.headers().firstValue("WWW-Authenticate")).isEmpty();
					assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).isEmpty();
					assertThat(refused.body()).contains("\"error\":\"auth_rate_limit_exceeded\"")
						.contains("\"bound\":\"block\"");
				});
				assertThat(GuardTestApplication.handled.get()).as("no handler ran for a blocked address")
					.isEqualTo(handledBefore);
			}
		}
	}

	private ConfigurableApplicationContext start(Instant now) {
		return start(now, "limiter");
	}

	private ConfigurableApplicationContext start(Instant now, String keyPrefix) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(GuardTestApplication.class)
			.properties("server.port=0", "limiter.store=redis", "spring.data.redis.host=" + redis.server().host(),
					"spring.data.redis.port=" + redis.port(), "limiter.redis.key-prefix=" + keyPrefix)
			.run();
		clock(context).set(now);
		return context;
	}

	private static MutableClock clock(ConfigurableApplicationContext context) {
		return context.getBean("limiterClock", MutableClock.class);
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String authorization) throws Exception {
		int port = ((ServletWebServerApplicationContext) context).getWebServer().getPort();
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello"))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", authorization)
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
