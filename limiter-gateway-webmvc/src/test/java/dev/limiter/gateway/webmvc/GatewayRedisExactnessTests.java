package dev.limiter.gateway.webmvc;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two gateway instances on one Redis, 32 concurrent clients of one caller spread over
 * both, on a route on {@code Limiter=exact}: exactly the bound is admitted across the
 * two, and exactly that many requests reach the backend.
 */
@UsesRedisServer
class GatewayRedisExactnessTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final int BOUND = 50;

	private static final int CLIENTS = 32;

	private static final int REQUESTS_PER_CLIENT = 4;

	@Test
	void twoGatewaysOnOneRedisWhenThirtyTwoClientsRaceOnOneKeyShouldAdmitExactlyTheBound() throws Exception {
		try (Backend backend = Backend.start()) {
			ConfigurableApplicationContext first = start(backend);
			ConfigurableApplicationContext second = start(backend);
			ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
			try {
				AtomicInteger admitted = new AtomicInteger();
				AtomicInteger refused = new AtomicInteger();
				CountDownLatch go = new CountDownLatch(1);
				List<Future<?>> running = new ArrayList<>();
				for (int client = 0; client < CLIENTS; client++) {
					ConfigurableApplicationContext gateway = (client % 2 == 0) ? first : second;
					running.add(clients.submit(() -> {
						go.await();
						for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
							HttpResponse<String> response = Gateways.get(gateway, "/limited/race", "racer");
							if (response.statusCode() == 200) {
								admitted.incrementAndGet();
							}
							else if (response.statusCode() == 429) {
								refused.incrementAndGet();
							}
						}
						return null;
					}));
				}
				go.countDown();
				for (Future<?> client : running) {
					client.get(60, TimeUnit.SECONDS);
				}

				assertThat(admitted.get()).isEqualTo(BOUND);
				assertThat(refused.get()).isEqualTo(CLIENTS * REQUESTS_PER_CLIENT - BOUND);
				assertThat(backend.received("limited")).isEqualTo(BOUND);
			}
			finally {
				clients.shutdownNow();
				second.close();
				first.close();
			}
		}
	}

	/**
	 * A gateway on the test's Redis whose {@code tight} budget holds {@link #BOUND} a
	 * day: no window boundary falls inside the test but once a day.
	 */
	private static ConfigurableApplicationContext start(Backend backend) {
		return Gateways.start(backend, "limiter.store=redis", "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=" + redis.port(), "management.health.redis.enabled=false",
				"limiter.budgets.tight.windows.minute.limit=" + BOUND,
				"limiter.budgets.tight.windows.minute.duration=1d");
	}

}
