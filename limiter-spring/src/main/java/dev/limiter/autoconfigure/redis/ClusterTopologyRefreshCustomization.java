package dev.limiter.autoconfigure.redis;

import dev.limiter.redis.ClusterTopologyRefresh;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * What every Boot line's Lettuce customizer does: applies {@link ClusterTopologyRefresh}
 * to the Lettuce client Boot builds, unless the application has set any of
 * {@code spring.data.redis.lettuce.cluster.refresh.*} (an application that chose its
 * refresh keeps its choice). Boot 3 and Boot 4 name the customizer interface in different
 * packages, so each starter adds only the {@code implements}.
 */
public class ClusterTopologyRefreshCustomization {

	/**
	 * Boot's own keys for the Cluster topology refresh; any of them set means the
	 * application decided.
	 */
	public static final String REFRESH_PREFIX = "spring.data.redis.lettuce.cluster.refresh";

	private final Environment environment;

	private final boolean clusterConfigured;

	/**
	 * @param environment where the application's {@code spring.data.redis.*} keys are
	 * read
	 * @param clusterConfigured whether the application's Redis is a Cluster even though
	 * Boot built plain client options (a {@code RedisClusterConfiguration} bean instead
	 * of the cluster keys)
	 */
	public ClusterTopologyRefreshCustomization(Environment environment, boolean clusterConfigured) {
		this.environment = environment;
		this.clusterConfigured = clusterConfigured;
	}

	public void customize(LettuceClientConfigurationBuilder builder) {
		if (!applicationChoseRefresh()) {
			ClusterTopologyRefresh.apply(builder, clusterConfigured);
		}
	}

	private boolean applicationChoseRefresh() {
		return Binder.get(environment).bind(REFRESH_PREFIX, Bindable.mapOf(String.class, Object.class)).isBound();
	}

}
