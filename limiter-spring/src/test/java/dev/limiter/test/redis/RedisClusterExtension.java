package dev.limiter.test.redis;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Runs a real three-master Redis Cluster for a test class, slots assigned and
 * {@code cluster_state:ok} before the first test. Register it as a static field;
 * {@link #perClass()} owns its cluster, {@link #shared()} uses the JVM's one shared
 * cluster.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {

	private final boolean shared;

	private final RedisClientKind client;

	private final List<RedisConnectionFactory> factories = new ArrayList<>();

	private final Map<RedisClientKind, RedisConnectionFactory> classFactories = new EnumMap<>(RedisClientKind.class);

	private RedisClusterProcesses cluster;

	private RedisClusterExtension(boolean shared, RedisClientKind client) {
		this.shared = shared;
		this.client = client;
	}

	public static RedisClusterExtension perClass() {
		return perClass(RedisClientKind.LETTUCE);
	}

	/** Its own cluster, reached through the given client. */
	public static RedisClusterExtension perClass(RedisClientKind client) {
		return new RedisClusterExtension(false, client);
	}

	public static RedisClusterExtension shared() {
		return shared(RedisClientKind.LETTUCE);
	}

	/** The JVM's shared cluster, reached through the given client. */
	public static RedisClusterExtension shared(RedisClientKind client) {
		return new RedisClusterExtension(true, client);
	}

	/** The client this extension's connection factories use. */
	public RedisClientKind client() {
		return client;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		cluster = shared ? SharedRedis.cluster() : RedisClusterProcesses.start();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		factories.forEach(RedisClientKind::destroy);
		factories.clear();
		classFactories.clear();
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
	public RedisConnectionFactory classConnectionFactory() {
		return classConnectionFactory(client);
	}

	/**
	 * One started connection factory of the given client that every test of the class
	 * shares.
	 */
	public synchronized RedisConnectionFactory classConnectionFactory(RedisClientKind kind) {
		return classFactories.computeIfAbsent(kind, this::connectionFactory);
	}

	/** A started cluster connection factory, destroyed after the class. */
	public RedisConnectionFactory connectionFactory() {
		return connectionFactory(client);
	}

	/** A started connection factory of the given client, destroyed after the class. */
	public synchronized RedisConnectionFactory connectionFactory(RedisClientKind kind) {
		RedisConnectionFactory factory = kind.cluster(cluster().addresses());
		factories.add(factory);
		return factory;
	}

}
