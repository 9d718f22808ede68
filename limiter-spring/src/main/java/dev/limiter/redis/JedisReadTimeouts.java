package dev.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * Jedis's own socket under a pooled {@code Jedis} (standalone or Sentinel behind
 * spring-data-redis's {@link JedisConnectionFactory}): a call on the calling thread
 * bounds the read of its reply by the request's remaining time, as the socket's read
 * timeout for that call, and puts the configured timeout back after it. A connection
 * whose read did not end with a reply is marked broken, so that the pool closes it
 * instead of lending it to a next caller who would read the late reply as its own.
 * {@code JedisCluster} hides its connections per call, so a Cluster gets none of this
 * (its calls stay on the pool). Only {@link RedisScriptCalls} names this class, and only
 * when Jedis is on the class path.
 */
final class JedisReadTimeouts implements ReadTimeouts {

	private final int connections;

	private JedisReadTimeouts(int connections) {
		this.connections = connections;
	}

	/**
	 * For a pooled, non-Cluster Jedis factory, else {@code null}: without a pool every
	 * call would open (and handshake) a connection of its own, which no read timeout of
	 * ours bounds.
	 */
	static JedisReadTimeouts of(RedisConnectionFactory connectionFactory) {
		if (!(connectionFactory instanceof JedisConnectionFactory jedis) || jedis.isRedisClusterAware()
				|| !jedis.getUsePool()) {
			return null;
		}
		GenericObjectPoolConfig<?> pool = jedis.getPoolConfig();
		// spring-data-redis builds a Sentinel pool without a configuration on Jedis's
		// defaults.
		int maxTotal = pool != null ? pool.getMaxTotal() : GenericObjectPoolConfig.DEFAULT_MAX_TOTAL;
		return new JedisReadTimeouts(maxTotal < 0 ? Integer.MAX_VALUE : maxTotal);
	}

	@Override
	public int connections() {
		return connections;
	}

	@Override
	public int set(RedisConnection connection, int millis) {
		Connection socket = socketOf(connection);
		int configured = socket.getSoTimeout();
		socket.setSoTimeout(millis);
		return configured;
	}

	/**
	 * Jedis's own send, flush ({@code getMany(0)}: the one public flush that reads
	 * nothing) and read, so that {@code written} runs between the flush and the read; the
	 * reply is the raw multi-bulk spring-data-redis would return for it.
	 */
	@Override
	@SuppressWarnings("unchecked")
	public List<Object> evalSha(RedisConnection connection, String sha1, int keys, byte[][] keysAndArgs,
			Runnable written) {
		Connection socket = socketOf(connection);
		byte[][] command = new byte[keysAndArgs.length + 2][];
		command[0] = sha1.getBytes(StandardCharsets.US_ASCII);
		command[1] = Integer.toString(keys).getBytes(StandardCharsets.US_ASCII);
		System.arraycopy(keysAndArgs, 0, command, 2, keysAndArgs.length);
		socket.sendCommand(Protocol.Command.EVALSHA, command);
		socket.getMany(0);
		written.run();
		return (List<Object>) socket.getOne();
	}

	@Override
	public void restore(RedisConnection connection, int millis) {
		Connection socket = socketOf(connection);
		if (!socket.isBroken()) {
			// Fails by marking the connection broken: then the pool closes it.
			socket.setSoTimeout(millis);
		}
	}

	/**
	 * Keeps the connection only when Redis answered with an error (NOSCRIPT, a script's
	 * error): then nothing of the call is left unread on it.
	 */
	@Override
	public boolean discardUnlessAnswered(RedisConnection connection, RuntimeException failure) {
		for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
			if (t instanceof JedisDataException) {
				return false;
			}
		}
		socketOf(connection).setBroken();
		return true;
	}

	private static Connection socketOf(RedisConnection connection) {
		return ((Jedis) connection.getNativeConnection()).getConnection();
	}

}
