package dev.limiter.boot4.redis;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisClusterConfiguration;

/**
 * Spring Boot 4: registers the Cluster topology refresh with Boot's Redis
 * auto-configuration (now in {@code spring-boot-data-redis}) when the limiter counts in
 * Redis through Lettuce.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnLimiterEnabled
@ConditionalOnProperty(prefix = "limiter", name = "store", havingValue = "redis")
@ConditionalOnClass(name = { "io.lettuce.core.cluster.ClusterClientOptions",
		"org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer" })
public class Boot4LimiterLettuceAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public Boot4ClusterTopologyRefreshCustomizer limiterClusterTopologyRefreshCustomizer(Environment environment,
			ObjectProvider<RedisClusterConfiguration> clusterConfigurations) {
		return new Boot4ClusterTopologyRefreshCustomizer(environment, clusterConfigurations.getIfAvailable() != null);
	}

}
