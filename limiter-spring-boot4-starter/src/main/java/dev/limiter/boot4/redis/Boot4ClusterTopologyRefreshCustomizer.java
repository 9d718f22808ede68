package dev.limiter.boot4.redis;

import dev.limiter.autoconfigure.redis.ClusterTopologyRefreshCustomization;

import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.core.env.Environment;

/** Spring Boot 4's hook for {@link ClusterTopologyRefreshCustomization}. */
public class Boot4ClusterTopologyRefreshCustomizer extends ClusterTopologyRefreshCustomization
		implements LettuceClientConfigurationBuilderCustomizer {

	public Boot4ClusterTopologyRefreshCustomizer(Environment environment, boolean clusterConfigured) {
		super(environment, clusterConfigured);
	}

}
