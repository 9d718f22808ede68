package dev.limiter.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.springframework.boot.autoconfigure.data.redis.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

import java.time.Duration;

/**
 * Makes a Lettuce Cluster client follow failovers: with Spring Boot's defaults Lettuce never refreshes the
 * Cluster topology, so after a master dies it keeps reconnecting to the dead node and the limiter stays degraded
 * (every instance counting alone) although the replica was promoted long ago. This turns on the adaptive
 * triggers (MOVED, ASK, persistent reconnects) and a periodic refresh from the nodes the client sees.
 *
 * <p>Applies only to a Cluster client, and only when the application has set none of
 * {@code spring.data.redis.lettuce.cluster.refresh.*}: an application that chose its refresh keeps its choice.
 */
public class ClusterTopologyRefreshCustomizer implements LettuceClientConfigurationBuilderCustomizer {

    /** Boot's own keys for the Cluster topology refresh; any of them set means the application decided. */
    public static final String REFRESH_PREFIX = "spring.data.redis.lettuce.cluster.refresh";

    /** How often the topology is read again even when nothing triggered a refresh. */
    public static final Duration PERIOD = Duration.ofSeconds(3);

    /**
     * The least time between two adaptive refreshes. Lettuce's default is 30 s: the refresh triggered by the
     * dying master happens before the replica is promoted and would hold back the one that sees the promotion.
     */
    public static final Duration ADAPTIVE_TRIGGERS_TIMEOUT = Duration.ofSeconds(3);

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
        if (applicationChoseRefresh()) {
            return;
        }
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

    static ClusterTopologyRefreshOptions refreshOptions() {
        return ClusterTopologyRefreshOptions.builder()
                .enableAllAdaptiveRefreshTriggers()
                .adaptiveRefreshTriggersTimeout(ADAPTIVE_TRIGGERS_TIMEOUT)
                .enablePeriodicRefresh(PERIOD)
                .dynamicRefreshSources(true)
                .build();
    }

    private boolean applicationChoseRefresh() {
        return Binder.get(environment).bind(REFRESH_PREFIX, Bindable.mapOf(String.class, Object.class)).isBound();
    }
}
