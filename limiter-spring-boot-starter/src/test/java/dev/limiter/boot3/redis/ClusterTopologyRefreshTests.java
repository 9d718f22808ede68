package dev.limiter.boot3.redis;

import java.time.Duration;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration;
import dev.limiter.test.redis.RedisClusterExtension;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's Cluster topology refresh, as Boot's own Lettuce connection factory
 * receives it.
 */
@UsesRedisServer
class ClusterTopologyRefreshTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	@RegisterExtension
	static RedisClusterExtension cluster = RedisClusterExtension.shared();

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(RedisAutoConfiguration.class, LimiterResilienceAutoConfiguration.class, LimiterRedisAutoConfiguration.class,
				LimiterLettuceAutoConfiguration.class, LimiterAutoConfiguration.class));

	private String clusterNodes() {
		return "spring.data.redis.cluster.nodes=" + String.join(",", cluster.cluster().addresses());
	}

	private static ClientOptions clientOptions(AssertableApplicationContext context) {
		return context.getBean(LettuceConnectionFactory.class)
			.getClientConfiguration()
			.getClientOptions()
			.orElseThrow();
	}

	@Test
	void clusterWhenRefreshNotSetShouldRefreshAdaptivelyAndEveryThreeSeconds() {
		runner.withPropertyValues("limiter.store=redis", clusterNodes()).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(clientOptions(context)).isInstanceOfSatisfying(ClusterClientOptions.class, options -> {
				ClusterTopologyRefreshOptions refresh = options.getTopologyRefreshOptions();
				assertThat(refresh.isPeriodicRefreshEnabled()).isTrue();
				assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(3));
				assertThat(refresh.getAdaptiveRefreshTriggers()).contains(RefreshTrigger.MOVED_REDIRECT,
						RefreshTrigger.PERSISTENT_RECONNECTS, RefreshTrigger.UNCOVERED_SLOT);
				assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(refresh.useDynamicRefreshSources()).isTrue();
			});
		});
	}

	@Test
	void clusterWhenApplicationSetRefreshPeriodShouldKeepItsChoice() {
		runner
			.withPropertyValues("limiter.store=redis", clusterNodes(),
					"spring.data.redis.lettuce.cluster.refresh.period=30s")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(clientOptions(context)).isInstanceOfSatisfying(ClusterClientOptions.class, options -> {
					ClusterTopologyRefreshOptions refresh = options.getTopologyRefreshOptions();
					assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(30));
					assertThat(refresh.getAdaptiveRefreshTriggers()).as("Boot's default: not adaptive").isEmpty();
				});
			});
	}

	@Test
	void clusterWhenApplicationTurnedAdaptiveOffShouldKeepItsChoice() {
		runner
			.withPropertyValues("limiter.store=redis", clusterNodes(),
					"spring.data.redis.lettuce.cluster.refresh.adaptive=false")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(clientOptions(context)).isInstanceOfSatisfying(ClusterClientOptions.class, options -> {
					ClusterTopologyRefreshOptions refresh = options.getTopologyRefreshOptions();
					assertThat(refresh.isPeriodicRefreshEnabled()).isFalse();
					assertThat(refresh.getAdaptiveRefreshTriggers()).isEmpty();
				});
			});
	}

	@Test
	void clusterWhenLimiterNotOnRedisShouldKeepBootsDefaults() {
		runner.withPropertyValues("limiter.store=memory", clusterNodes()).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(ClusterTopologyRefreshCustomizer.class);
			assertThat(clientOptions(context)).isInstanceOfSatisfying(ClusterClientOptions.class,
					options -> assertThat(options.getTopologyRefreshOptions().isPeriodicRefreshEnabled()).isFalse());
		});
	}

	@Test
	void standaloneWhenRedisShouldKeepPlainClientOptions() {
		runner
			.withPropertyValues("limiter.store=redis", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + redis.port())
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(clientOptions(context)).isNotInstanceOf(ClusterClientOptions.class);
			});
	}

}
