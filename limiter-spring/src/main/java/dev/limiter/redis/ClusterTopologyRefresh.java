package dev.limiter.redis;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * Makes a Lettuce Cluster client follow failovers: with Spring Boot's defaults Lettuce
 * never refreshes the Cluster topology, so after a master dies it keeps reconnecting to
 * the dead node and the limiter stays degraded (every instance counting alone) although
 * the replica was promoted long ago. This turns on the adaptive triggers (MOVED, ASK,
 * persistent reconnects) and a periodic refresh from the nodes the client sees.
 *
 * <p>
 * Applies only to a Cluster client. Each Spring Boot line's starter hands it the builder
 * through its own customizer interface, and only when the application chose no refresh of
 * its own.
 */
public final class ClusterTopologyRefresh {

	/** How often the topology is read again even when nothing triggered a refresh. */
	public static final Duration PERIOD = Duration.ofSeconds(3);

	/**
	 * The least time between two adaptive refreshes. Lettuce's default is 30 s: the
	 * refresh triggered by the dying master happens before the replica is promoted and
	 * would hold back the one that sees the promotion.
	 */
	public static final Duration ADAPTIVE_TRIGGERS_TIMEOUT = Duration.ofSeconds(3);

	private ClusterTopologyRefresh() {
	}

	/**
	 * @param builder the client configuration Spring Boot is building
	 * @param clusterConfigured whether the application's Redis is a Cluster even though
	 * Boot built plain client options (a {@code RedisClusterConfiguration} bean instead
	 * of the cluster keys)
	 */
	public static void apply(LettuceClientConfigurationBuilder builder, boolean clusterConfigured) {
		ClientOptions current = builder.build().getClientOptions().orElse(null);
		ClusterClientOptions.Builder options;
		if (current instanceof ClusterClientOptions cluster) {
			options = cluster.mutate();
		}
		else if (clusterConfigured) {
			options = current == null ? ClusterClientOptions.builder() : ClusterClientOptions.builder(current);
		}
		else {
			return;
		}
		builder.clientOptions(options.topologyRefreshOptions(refreshOptions()).build());
	}

	/**
	 * The refresh the limiter asks for; an application configuring its own can start from
	 * these values.
	 */
	public static ClusterTopologyRefreshOptions refreshOptions() {
		return ClusterTopologyRefreshOptions.builder()
			.enableAllAdaptiveRefreshTriggers()
			.adaptiveRefreshTriggersTimeout(ADAPTIVE_TRIGGERS_TIMEOUT)
			.enablePeriodicRefresh(PERIOD)
			.dynamicRefreshSources(true)
			.build();
	}

}
