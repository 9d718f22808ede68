package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * What {@link RedisScriptCalls} needs of a Redis client: each command is sent at once and
 * answered by a future, so that the call layer above enforces one timeout per request,
 * the EVALSHA → EVAL fallback and the fire-and-forget sends the same way for every
 * client; a client that can bound the read of a reply also runs a call the request waits
 * for on the calling thread ({@link #claimCallingThread}). {@link LettuceDriver} writes
 * on Lettuce's shared connection; {@link BlockingRedisDriver} runs any other client
 * (Jedis) on the calling thread or on a small pool. Implementations name no type of
 * another client, so an application with one client never loads a class of the other.
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
	 * thread's commands in order (a pool) runs the same request's next command after it.
	 */
	default void sentWithoutWaiting(CompletableFuture<?> sent) {
	}

	/**
	 * Whether the next call may run on the calling thread: if so, the caller makes
	 * exactly one {@link #onCallingThread} call next, which ends the claim.
	 */
	default boolean claimCallingThread() {
		return false;
	}

	/**
	 * Runs {@code calls} on the calling thread, on one connection, each reply read until
	 * {@code deadlineNanos} ({@link System#nanoTime()}); only after
	 * {@link #claimCallingThread} answered {@code true}.
	 */
	default <T> T onCallingThread(long deadlineNanos, Function<ScriptCommands, T> calls) {
		throw new UnsupportedOperationException(client() + " calls run on futures only");
	}

	/**
	 * Whether sending a command and completing its future never block the calling thread
	 * (Lettuce's shared connection): only then may a caller that must not wait (a
	 * reactive request) use the store.
	 */
	default boolean answersWithoutBlocking() {
		return false;
	}

	/**
	 * The client's name as {@code spring.data.redis.client-type} spells it, for messages.
	 */
	String client();

	/** The keys then the arguments, as EVAL and EVALSHA take them after the key count. */
	static byte[][] keysAndArgs(byte[][] keys, byte[][] args) {
		byte[][] all = new byte[keys.length + args.length][];
		System.arraycopy(keys, 0, all, 0, keys.length);
		System.arraycopy(args, 0, all, keys.length, args.length);
		return all;
	}

	/**
	 * The client's name from the factory's class, without loading any client's class:
	 * {@code JedisConnectionFactory} is {@code jedis}.
	 */
	static String clientOf(RedisConnectionFactory connectionFactory) {
		String name = connectionFactory.getClass().getName();
		if (name.startsWith("org.springframework.data.redis.connection.jedis.")) {
			return "jedis";
		}
		if (name.startsWith("org.springframework.data.redis.connection.lettuce.")) {
			return "lettuce";
		}
		return name;
	}

	/**
	 * Scripts on one connection of the calling thread, each reply read until the call's
	 * deadline.
	 */
	interface ScriptCommands {

		/** EVALSHA; fails with a NOSCRIPT error when the server lacks the script. */
		List<Object> evalSha(String sha1, byte[][] keys, byte[][] args);

		/** EVAL, which loads the script into the server's cache. */
		List<Object> eval(byte[] script, byte[][] keys, byte[][] args);

	}

}
