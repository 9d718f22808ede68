package dev.limiter.boot3.redis;

import dev.limiter.autoconfigure.redis.ClusterTopologyRefreshCustomization;

import org.springframework.boot.autoconfigure.data.redis.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.core.env.Environment;

/** Spring Boot 3's hook for {@link ClusterTopologyRefreshCustomization}. */
public class ClusterTopologyRefreshCustomizer extends ClusterTopologyRefreshCustomization
		implements LettuceClientConfigurationBuilderCustomizer {

	public ClusterTopologyRefreshCustomizer(Environment environment, boolean clusterConfigured) {
		super(environment, clusterConfigured);
	}

}
