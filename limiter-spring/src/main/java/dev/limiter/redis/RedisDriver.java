package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What {@link RedisScriptCalls} needs of a Redis client: each command is sent at once and
 * answered by a future, so that the call layer above enforces one timeout per request,
 * the EVALSHA → EVAL fallback and the fire-and-forget sends the same way for every
 * client. {@link LettuceDriver} writes on Lettuce's shared connection;
 * {@link BlockingRedisDriver} runs any other client (Jedis) on a small pool.
 * Implementations name no type of another client, so an application with one client never
 * loads a class of the other.
 */
interface RedisDriver {

	/**
	 * EVALSHA with a multi-bulk reply; fails with a NOSCRIPT error when the server lacks
	 * the script.
	 */
	CompletableFuture<List<Object>> evalSha(String sha1, byte[][] keys, byte[][] args);

	/** EVAL with a multi-bulk reply; loads the script into the server's cache. */
	CompletableFuture<List<Object>> eval(byte[] script, byte[][] keys, byte[][] args);

	CompletableFuture<?> zrem(byte[] key, byte[] member);

	CompletableFuture<?> delete(byte[][] keys);

	/**
	 * Connects (and preloads the scripts) without waiting; the future completes once
	 * connected.
	 */
	CompletableFuture<?> connect();

	/**
	 * Told of a command whose answer nobody waits for; a client that does not keep one
	 * thread's commands in order (a pool) runs that thread's next command after it.
	 */
	default void sentWithoutWaiting(CompletableFuture<?> sent) {
	}

	/**
	 * The client's name as {@code spring.data.redis.client-type} spells it, for messages.
	 */
	String client();

}
