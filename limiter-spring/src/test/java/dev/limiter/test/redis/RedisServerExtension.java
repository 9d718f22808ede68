package dev.limiter.test.redis;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Runs a real {@code redis-server} for a test class. Register it as a static field:
 * <pre>{@code @RegisterExtension static RedisServerExtension redis = RedisServerExtension.perClass();}</pre>
 * {@link #perClass()} starts a server before the class and stops it after (use it for
 * faults and for server-wide statistics); {@link #shared()} uses the JVM's one shared
 * server (use unique keys).
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {

	private final boolean shared;

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private LettuceConnectionFactory classFactory;

	private RedisServerProcess server;

	private RedisServerExtension(boolean shared) {
		this.shared = shared;
	}

	public static RedisServerExtension perClass() {
		return new RedisServerExtension(false);
	}

	public static RedisServerExtension shared() {
		return new RedisServerExtension(true);
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		server = shared ? SharedRedis.standalone() : RedisServerProcess.start();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		factories.forEach(LettuceConnectionFactory::destroy);
		factories.clear();
		classFactory = null;
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
	public synchronized LettuceConnectionFactory classConnectionFactory() {
		if (classFactory == null) {
			classFactory = connectionFactory();
		}
		return classFactory;
	}

	/**
	 * A started Lettuce connection factory for this server, destroyed after the class.
	 */
	public synchronized LettuceConnectionFactory connectionFactory() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server().host(), server().port()));
		factory.afterPropertiesSet();
		factory.start();
		factories.add(factory);
		return factory;
	}

}
