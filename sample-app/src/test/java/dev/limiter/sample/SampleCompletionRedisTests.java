package dev.limiter.sample;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code completion} budget's demo (README) with the {@code redis} profile against a
 * real redis-server: on one instance, then across two instances sharing it (the calls
 * alternate between them), each on the limiter's clock.
 */
@UsesRedisServer
class SampleCompletionRedisTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	/** Shared by every instance this test starts. */
	static final MutableClock CLOCK = new MutableClock(Instant.parse("2030-01-01T00:00:01Z"));

	@Test
	void completionWhenCountedInRedisShouldRefuseUntilTheMinutesEndNamingTheTokensWindow() throws Exception {
		CLOCK.set(Instant.parse("2030-01-01T00:00:01Z"));
		List<ConfigurableApplicationContext> apps = start(1, "one");
		try {
			int port = port(apps.get(0));
			CompletionDemo.run((call) -> port);
		}
		finally {
			apps.forEach(ConfigurableApplicationContext::close);
		}
	}

	@Test
	void completionWhenTwoInstancesShareRedisShouldSettleOnTheSameWindows() throws Exception {
		CLOCK.set(Instant.parse("2030-01-01T00:00:01Z"));
		List<ConfigurableApplicationContext> apps = start(2, "two");
		try {
			int[] ports = { port(apps.get(0)), port(apps.get(1)) };
			CompletionDemo.run((call) -> ports[call % 2]);
		}
		finally {
			apps.forEach(ConfigurableApplicationContext::close);
		}
	}

	/**
	 * Instances on one Redis, under a key prefix of their own run; a generous timeout, so
	 * that a busy machine's first script load does not send an instance to its fallback.
	 */
	private static List<ConfigurableApplicationContext> start(int count, String run) {
		List<ConfigurableApplicationContext> apps = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			// arguments, not default properties: they must win over application-redis.yml
			apps.add(new SpringApplicationBuilder(SampleApplication.class, LimiterClock.class).profiles("redis")
				.run("--server.port=0", "--spring.data.redis.host=127.0.0.1",
						"--spring.data.redis.port=" + redis.port(), "--limiter.redis.key-prefix=completion-" + run,
						"--limiter.redis.timeout=10s", "--spring.jmx.enabled=false"));
		}
		return apps;
	}

	private static int port(ConfigurableApplicationContext app) {
		return Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
	}

	@Configuration(proxyBeanMethods = false)
	static class LimiterClock {

		@Bean(name = "limiterClock")
		MutableClock limiterClock() {
			return CLOCK;
		}

	}

}
