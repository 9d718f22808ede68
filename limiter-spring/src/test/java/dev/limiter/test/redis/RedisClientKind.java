package dev.limiter.test.redis;

import java.util.List;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The two clients Spring Boot supports ({@code spring.data.redis.client-type}): suites
 * that run on both take one of these and build their connection factories with it.
 */
public enum RedisClientKind {

	LETTUCE, JEDIS;

	/** The value of {@code spring.data.redis.client-type} that selects this client. */
	public String clientType() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

	/** A started connection factory for a standalone server. */
	public RedisConnectionFactory standalone(String host, int port) {
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(host, port);
		return start(this == LETTUCE ? new LettuceConnectionFactory(configuration)
				: new JedisConnectionFactory(configuration));
	}

	/** A started connection factory for a Cluster. */
	public RedisConnectionFactory cluster(List<String> nodes) {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration(nodes);
		return start(this == LETTUCE ? new LettuceConnectionFactory(configuration)
				: new JedisConnectionFactory(configuration));
	}

	/**
	 * A started connection factory for the master that the Sentinel at {@code sentinel}
	 * names {@code master}, as {@code spring.data.redis.sentinel.*} configures it.
	 */
	public RedisConnectionFactory sentinel(String master, RedisServerProcess sentinel) {
		RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(master)
			.sentinel(sentinel.host(), sentinel.port());
		return start(this == LETTUCE ? new LettuceConnectionFactory(configuration)
				: new JedisConnectionFactory(configuration));
	}

	/** Closes a factory this class started. */
	public static void destroy(RedisConnectionFactory factory) {
		try {
			((DisposableBean) factory).destroy();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static RedisConnectionFactory start(RedisConnectionFactory factory) {
		if (factory instanceof LettuceConnectionFactory lettuce) {
			lettuce.afterPropertiesSet();
			lettuce.start();
		}
		else {
			JedisConnectionFactory jedis = (JedisConnectionFactory) factory;
			jedis.afterPropertiesSet();
			jedis.start();
		}
		return factory;
	}

}
