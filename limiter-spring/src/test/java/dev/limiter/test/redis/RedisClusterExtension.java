package dev.limiter.test.redis;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Runs a real three-master Redis Cluster for a test class, slots assigned and
 * {@code cluster_state:ok} before the first test. Register it as a static field;
 * {@link #perClass()} owns its cluster, {@link #shared()} uses the JVM's one shared
 * cluster.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {

	private final boolean shared;

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private LettuceConnectionFactory classFactory;

	private RedisClusterProcesses cluster;

	private RedisClusterExtension(boolean shared) {
		this.shared = shared;
	}

	public static RedisClusterExtension perClass() {
		return new RedisClusterExtension(false);
	}

	public static RedisClusterExtension shared() {
		return new RedisClusterExtension(true);
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		cluster = shared ? SharedRedis.cluster() : RedisClusterProcesses.start();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		factories.forEach(LettuceConnectionFactory::destroy);
		factories.clear();
		classFactory = null;
		if (!shared && cluster != null) {
			cluster.close();
		}
	}

	public RedisClusterProcesses cluster() {
		if (cluster == null) {
			throw new IllegalStateException(
					"the cluster starts before all tests; register the extension as a static field");
		}
		return cluster;
	}

	/** One started connection factory that every test of the class shares. */
	public synchronized LettuceConnectionFactory classConnectionFactory() {
		if (classFactory == null) {
			classFactory = connectionFactory();
		}
		return classFactory;
	}

	/** A started Lettuce cluster connection factory, destroyed after the class. */
	public synchronized LettuceConnectionFactory connectionFactory() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(cluster().addresses()));
		factory.afterPropertiesSet();
		factory.start();
		factories.add(factory);
		return factory;
	}

}
