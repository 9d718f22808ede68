package dev.limiter.gateway.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two gateway instances on one Redis, 32 concurrent clients each, one credential on a
 * {@code Limiter} route: exactly the bound is admitted and forwarded (a token bucket's
 * burst, refilled once an hour, so nothing refills during the test).
 */
@ExtendWith(BlockHoundExtension.class)
@UsesRedisServer
class LimiterGatewayRedisExactnessTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private static final int BURST = 137;

	private static final int CLIENTS_PER_INSTANCE = 32;

	private static final int REQUESTS_PER_CLIENT = 4;

	/** The status recorded for an answer the store did not decide. */
	private static final int DEGRADED = -1;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@Test
	void limiterRouteWhenTwoGatewaysShareARedisShouldAdmitAndForwardExactlyTheBound() throws Exception {
		try (CountingBackend backend = CountingBackend.start()) {
			List<String> properties = new ArrayList<>(List.of("limiter.store=redis", "limiter.redis.timeout=5s",
					"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
					"limiter.budgets.bucket.windows.hour.limit=1", "limiter.budgets.bucket.windows.hour.duration=1h",
					"limiter.budgets.bucket.windows.hour.algorithm=token-bucket",
					"limiter.budgets.bucket.windows.hour.burst=" + BURST));
			properties.addAll(GatewayApplication.route(0, "bucket", backend.uri(), "[0]=Limiter=bucket"));
			try (ConfigurableApplicationContext first = GatewayApplication.run(properties);
					ConfigurableApplicationContext second = GatewayApplication.run(properties)) {
				warmUp(first);
				warmUp(second);
				int warmUps = backend.received("bucket");
				List<Integer> statuses = hammer("tok-" + UUID.randomUUID(), first, second);

				assertThat(statuses).hasSize(2 * CLIENTS_PER_INSTANCE * REQUESTS_PER_CLIENT);
				assertThat(statuses).as("every decision made by Redis").doesNotContain(DEGRADED);
				assertThat(statuses).filteredOn((status) -> status == 200).hasSize(BURST);
				assertThat(statuses).filteredOn((status) -> status == 429).hasSize(statuses.size() - BURST);
				assertThat(backend.received("bucket") - warmUps).as("forwarded").isEqualTo(BURST);
			}
		}
	}

	/** One decision per instance for another credential: the first calls are cold. */
	private void warmUp(ConfigurableApplicationContext gateway) throws Exception {
		String credential = "warm-up-" + UUID.randomUUID();
		for (int i = 0; i < 3; i++) {
			http.send(request(gateway, credential), HttpResponse.BodyHandlers.ofString());
		}
	}

	private List<Integer> hammer(String credential, ConfigurableApplicationContext... gateways) {
		List<Integer> statuses = new CopyOnWriteArrayList<>();
		List<CompletableFuture<Void>> clients = new ArrayList<>();
		for (ConfigurableApplicationContext gateway : gateways) {
			for (int client = 0; client < CLIENTS_PER_INSTANCE; client++) {
				clients.add(oneAfterTheOther(gateway, credential, REQUESTS_PER_CLIENT, statuses));
			}
		}
		CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).join();
		return statuses;
	}

	private CompletableFuture<Void> oneAfterTheOther(ConfigurableApplicationContext gateway, String credential,
			int left, List<Integer> statuses) {
		if (left == 0) {
			return CompletableFuture.completedFuture(null);
		}
		return http.sendAsync(request(gateway, credential), HttpResponse.BodyHandlers.ofString())
			.thenCompose((response) -> {
				statuses.add(response.headers().firstValue("X-RateLimit-Degraded").isPresent() ? DEGRADED
						: response.statusCode());
				return oneAfterTheOther(gateway, credential, left - 1, statuses);
			});
	}

	private static HttpRequest request(ConfigurableApplicationContext gateway, String credential) {
		return HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + GatewayApplication.port(gateway) + "/bucket/items"))
			.header("Authorization", "Bearer " + credential)
			.timeout(Duration.ofSeconds(30))
			.build();
	}

}
