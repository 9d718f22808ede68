package dev.limiter.boot3.redis;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisClusterConfiguration;

/**
 * Spring Boot 3 only: registers the {@link ClusterTopologyRefreshCustomizer} with Boot's
 * Redis auto-configuration when the limiter counts in Redis through Lettuce. Left unused
 * when the application builds its own connection factory.
 */
@AutoConfiguration(before = RedisAutoConfiguration.class)
@ConditionalOnLimiterEnabled
@ConditionalOnProperty(prefix = "limiter", name = "store", havingValue = "redis")
@ConditionalOnClass(name = { "org.springframework.data.redis.connection.RedisConnectionFactory",
		"io.lettuce.core.cluster.ClusterClientOptions",
		"org.springframework.boot.autoconfigure.data.redis.LettuceClientConfigurationBuilderCustomizer" })
public class LimiterLettuceAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public ClusterTopologyRefreshCustomizer limiterClusterTopologyRefreshCustomizer(Environment environment,
			ObjectProvider<RedisClusterConfiguration> clusterConfigurations) {
		return new ClusterTopologyRefreshCustomizer(environment, clusterConfigurations.getIfAvailable() != null);
	}

}
