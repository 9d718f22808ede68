package dev.limiter.reactive.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.limiter.core.StoreMode;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two WebFlux instances of one application on one real redis-server, under BlockHound:
 * bad bearer tokens sent to both block the address on both, as on servlet
 * ({@code AuthGuardRedisTests}), decided by Redis, never by a fallback.
 */
@ExtendWith(BlockHoundExtension.class)
@UsesRedisServer
class ReactiveAuthGuardRedisTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	void blockWhenTwoReactiveInstancesShareOneRedisShouldHoldAcrossBoth() throws Exception {
		Instant now = Instant.ofEpochMilli(System.currentTimeMillis() / 1000 * 1000);
		try (ConfigurableApplicationContext first = start(now); ConfigurableApplicationContext second = start(now)) {
			for (int i = 0; i < 25; i++) {
				assertThat(get(first, "Bearer sp_wrong-first-" + i).statusCode()).isEqualTo(401);
				assertThat(get(second, "Bearer sp_wrong-second-" + i).statusCode()).isEqualTo(401);
			}

			clock(second).set(now.plusSeconds(60));
			HttpResponse<String> refusedBySecond = get(second, "Bearer " + ReactiveGuardTestApplication.GOOD_TOKEN);
			clock(first).set(now.plus(Duration.ofMinutes(30)).minusMillis(1));
			HttpResponse<String> refusedByFirst = get(first, "Bearer " + ReactiveGuardTestApplication.GOOD_TOKEN);
			clock(second).set(now.plus(Duration.ofMinutes(30)));
			HttpResponse<String> admittedBySecond = get(second, "Bearer " + ReactiveGuardTestApplication.GOOD_TOKEN);

			assertThat(refusedBySecond.statusCode()).isEqualTo(429);
			assertThat(refusedBySecond.headers().firstValue("Retry-After")).hasValue("1740");
			assertThat(refusedBySecond.body()).contains("\"error\":\"auth_rate_limit_exceeded\"")
				.contains("\"bound\":\"block\"");
			assertThat(refusedByFirst.statusCode()).isEqualTo(429);
			assertThat(refusedByFirst.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(admittedBySecond.statusCode()).isEqualTo(200);
			assertThat(List.of(first, second)).allSatisfy(
					(instance) -> assertThat(instance.getBean("limiterStore", FailOpenRateLimitStore.class).mode())
						.as("decided by Redis, not by a fallback")
						.isEqualTo(StoreMode.AUTHORITATIVE));
		}
	}

	private ConfigurableApplicationContext start(Instant now) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ReactiveGuardTestApplication.class)
			.web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "limiter.store=redis", "spring.data.redis.host=" + redis.server().host(),
					"spring.data.redis.port=" + redis.port(), "limiter.redis.key-prefix=reactive-guard",
					"management.endpoints.enabled-by-default=false")
			.run();
		clock(context).set(now);
		return context;
	}

	private static MutableClock clock(ConfigurableApplicationContext context) {
		return context.getBean("limiterClock", MutableClock.class);
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String authorization) throws Exception {
		int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
		try {
			return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello"))
				.timeout(Duration.ofSeconds(30))
				.header("Authorization", authorization)
				.GET()
				.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (HttpTimeoutException unanswered) {
			throw new AssertionError("unanswered within 30 s: " + authorization + " on port " + port
					+ "; the JVM's threads then:\n" + threads(), unanswered);
		}
	}

	/**
	 * Every thread's state and top frames: what an unanswered request was waiting for.
	 */
	private static String threads() {
		StringBuilder dump = new StringBuilder();
		Thread.getAllStackTraces().forEach((thread, frames) -> {
			dump.append(thread.getName()).append(' ').append(thread.getState()).append('\n');
			for (int i = 0; i < Math.min(frames.length, 12); i++) {
				dump.append("    at ").append(frames[i]).append('\n');
			}
		});
		return dump.toString();
	}

}
