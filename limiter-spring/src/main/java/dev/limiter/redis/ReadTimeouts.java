package dev.limiter.redis;

import java.util.List;

import org.springframework.data.redis.connection.RedisConnection;

/**
 * What a client lets a call on the calling thread do with its connection: bound the read
 * of each reply, and keep a connection out of the pool once a read did not end with a
 * reply ({@link JedisReadTimeouts}). Names no client type, so that
 * {@link BlockingRedisDriver} loads none.
 */
interface ReadTimeouts {

	/** How many connections the client's pool holds at most. */
	int connections();

	/** Sets the read timeout of the connection; returns the one to restore. */
	int set(RedisConnection connection, int millis);

	/**
	 * EVALSHA with a multi-bulk reply, telling {@code written} once the command has left
	 * for Redis and before its reply is read.
	 */
	List<Object> evalSha(RedisConnection connection, String sha1, int keys, byte[][] keysAndArgs, Runnable written);

	/** Puts the configured read timeout back. */
	void restore(RedisConnection connection, int millis);

	/**
	 * Marks the connection for closing instead of reuse, unless the failure is Redis's
	 * own answer.
	 * @return whether it was discarded
	 */
	boolean discardUnlessAnswered(RedisConnection connection, RuntimeException failure);

}
