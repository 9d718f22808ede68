package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.core.RateLimitStore;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app with the {@code redis} profile against a real redis-server: the full 429
 * path over a real port.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.budgets.standard.windows.minute.limit=5", "sample.expensive-delay=0ms", })
@ActiveProfiles("redis")
@UsesRedisServer
class SampleApplicationRedisTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	@DynamicPropertySource
	static void redisPort(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.port", redis::port);
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
	}

	private final HttpClient http = HttpClient.newHttpClient();

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@Autowired
	private RateLimitStore store;

	@Test
	void redisProfileWhenActiveShouldCountInRedisAndServeTheFull429Path() throws Exception {
		assertThat(store).isInstanceOf(FailOpenRateLimitStore.class);
		assertThat(store.name()).isEqualTo("redis");
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> admitted = send("/s/recall");
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(admitted.headers().firstValue("X-RateLimit-Remaining")).contains(Integer.toString(4 - i));
			assertThat(admitted.headers().firstValue("X-RateLimit-Degraded")).isEmpty();
		}

		HttpResponse<String> refused = send("/s/recall");

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).contains("42");
		assertThat(refused.headers().firstValue("Cache-Control")).contains("no-store");
		assertThat(refused.headers().firstValue("CDN-Cache-Control")).contains("no-store");
		JsonNode body = json.readTree(refused.body());
		assertThat(body.get("error").asText()).isEqualTo("rate_limit_exceeded");
		assertThat(body.get("budget").asText()).isEqualTo("standard");
		assertThat(body.get("bound").asText()).isEqualTo("minute");
		assertThat(body.get("retryAfter").asLong()).isEqualTo(42);
		List<String> keys = scan();
		assertThat(keys).isNotEmpty().allSatisfy(key -> {
			assertThat(key).startsWith("sample:").doesNotContain(DEMO_TOKEN);
			assertThat((Long) redis.server().call("PTTL", key)).isPositive();
		});
	}

	@SuppressWarnings("unchecked")
	private List<String> scan() {
		List<Object> reply = (List<Object>) redis.server().call("SCAN", "0", "COUNT", "1000");
		return ((List<Object>) reply.get(1)).stream().map(String::valueOf).toList();
	}

	private HttpResponse<String> send(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("Authorization", "Bearer " + DEMO_TOKEN)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		return http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class FixedLimiterClock {

		/** 18 s into a minute, so that the refusal's Retry-After is exactly 42. */
		@Bean(name = "limiterClock")
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:18Z"), ZoneOffset.UTC);
		}

	}

}
