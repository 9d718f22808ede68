package dev.limiter.autoconfigure.redis;

import dev.limiter.redis.ClusterTopologyRefresh;
import org.springframework.boot.autoconfigure.data.redis.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * Spring Boot 3's hook for {@link ClusterTopologyRefresh}: applied by Boot to the Lettuce connection factory it
 * builds, and only when the application has set none of {@code spring.data.redis.lettuce.cluster.refresh.*} (an
 * application that chose its refresh keeps its choice).
 */
public class ClusterTopologyRefreshCustomizer implements LettuceClientConfigurationBuilderCustomizer {

    /** Boot's own keys for the Cluster topology refresh; any of them set means the application decided. */
    public static final String REFRESH_PREFIX = "spring.data.redis.lettuce.cluster.refresh";

    private final Environment environment;
    private final boolean clusterConfigured;

    /**
     * @param environment       where the application's {@code spring.data.redis.*} keys are read
     * @param clusterConfigured whether the application's Redis is a Cluster even though Boot built plain client
     *                          options (a {@code RedisClusterConfiguration} bean instead of the cluster keys)
     */
    public ClusterTopologyRefreshCustomizer(Environment environment, boolean clusterConfigured) {
        this.environment = environment;
        this.clusterConfigured = clusterConfigured;
    }

    @Override
    public void customize(LettuceClientConfigurationBuilder builder) {
        if (!applicationChoseRefresh()) {
            ClusterTopologyRefresh.apply(builder, clusterConfigured);
        }
    }

    private boolean applicationChoseRefresh() {
        return Binder.get(environment).bind(REFRESH_PREFIX, Bindable.mapOf(String.class, Object.class)).isBound();
    }
}
