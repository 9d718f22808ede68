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
 * Runs a real {@code redis-server} for a test class. Register it as a static field:
 * <pre>{@code @RegisterExtension static RedisServerExtension redis = RedisServerExtension.perClass();}</pre>
 * {@link #perClass()} starts a server before the class and stops it after (use it for
 * faults and for server-wide statistics); {@link #shared()} uses the JVM's one shared
 * server (use unique keys).
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {

	private final boolean shared;

	private final RedisClientKind client;

	private final List<RedisConnectionFactory> factories = new ArrayList<>();

	private final Map<RedisClientKind, RedisConnectionFactory> classFactories = new EnumMap<>(RedisClientKind.class);

	private RedisServerProcess server;

	private RedisServerExtension(boolean shared, RedisClientKind client) {
		this.shared = shared;
		this.client = client;
	}

	public static RedisServerExtension perClass() {
		return perClass(RedisClientKind.LETTUCE);
	}

	/** Its own server, reached through the given client. */
	public static RedisServerExtension perClass(RedisClientKind client) {
		return new RedisServerExtension(false, client);
	}

	public static RedisServerExtension shared() {
		return shared(RedisClientKind.LETTUCE);
	}

	/** The JVM's shared server, reached through the given client. */
	public static RedisServerExtension shared(RedisClientKind client) {
		return new RedisServerExtension(true, client);
	}

	/** The client this extension's connection factories use. */
	public RedisClientKind client() {
		return client;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		server = shared ? SharedRedis.standalone() : RedisServerProcess.start();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		factories.forEach(RedisClientKind::destroy);
		factories.clear();
		classFactories.clear();
		if (!shared && server != null) {
			server.close();
		}
	}

	public RedisServerProcess server() {
		if (server == null) {
			throw new IllegalStateException(
					"the redis server starts before all tests; register the extension as a static field");
		}
		return server;
	}

	public int port() {
		return server().port();
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

	/**
	 * A started connection factory for this server, destroyed after the class.
	 */
	public RedisConnectionFactory connectionFactory() {
		return connectionFactory(client);
	}

	/** A started connection factory of the given client, destroyed after the class. */
	public synchronized RedisConnectionFactory connectionFactory(RedisClientKind kind) {
		RedisConnectionFactory factory = kind.standalone(server().host(), server().port());
		factories.add(factory);
		return factory;
	}

}
