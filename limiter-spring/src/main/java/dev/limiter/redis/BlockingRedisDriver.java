package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

import dev.limiter.core.RateLimitStoreException;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

/**
 * Any spring-data-redis client whose commands block the calling thread (Jedis, or Lettuce
 * without a shared connection): each command runs on a small pool, on a connection taken
 * from the factory for that command (standalone, Sentinel or Cluster alike), so that the
 * request waits for the future and its timeout can abandon a call the client would still
 * be waiting on. A full pool fails the call at once as saturated.
 */
final class BlockingRedisDriver implements RedisDriver {

	private final RedisConnectionFactory connectionFactory;

	private final Executor pool;

	private final int poolSize;

	private final List<byte[]> scripts;

	private final String client;

	/**
	 * The command each thread last sent without waiting, which its next command runs
	 * after.
	 */
	private final ThreadLocal<CompletableFuture<?>> lastSent = new ThreadLocal<>();

	BlockingRedisDriver(RedisConnectionFactory connectionFactory, Executor pool, int poolSize, List<byte[]> scripts) {
		this.connectionFactory = connectionFactory;
		this.pool = pool;
		this.poolSize = poolSize;
		this.scripts = scripts;
		this.client = clientOf(connectionFactory);
	}

	@Override
	public CompletableFuture<List<Object>> evalSha(String sha1, byte[][] keys, byte[][] args) {
		byte[][] keysAndArgs = keysAndArgs(keys, args);
		return onPool(connection -> connection.scriptingCommands()
			.<List<Object>>evalSha(sha1, ReturnType.MULTI, keys.length, keysAndArgs));
	}

	@Override
	public CompletableFuture<List<Object>> eval(byte[] script, byte[][] keys, byte[][] args) {
		byte[][] keysAndArgs = keysAndArgs(keys, args);
		return onPool(connection -> connection.scriptingCommands()
			.<List<Object>>eval(script, ReturnType.MULTI, keys.length, keysAndArgs));
	}

	@Override
	public CompletableFuture<?> zrem(byte[] key, byte[] member) {
		return onPool(connection -> connection.zSetCommands().zRem(key, member));
	}

	@Override
	public CompletableFuture<?> delete(byte[][] keys) {
		return onPool(connection -> connection.keyCommands().del(keys));
	}

	/**
	 * Loads the scripts, so that the first decision's EVALSHA finds them; on a Cluster
	 * the client sends SCRIPT LOAD to every master.
	 */
	@Override
	public CompletableFuture<?> connect() {
		return onPool(connection -> {
			for (byte[] script : scripts) {
				connection.scriptingCommands().scriptLoad(script);
			}
			return null;
		});
	}

	@Override
	public String client() {
		return client;
	}

	/**
	 * Runs this thread's next command after it: a decision a thread asks for right after
	 * a release it sent without waiting already sees the lease gone, as on one
	 * connection.
	 */
	@Override
	public void sentWithoutWaiting(CompletableFuture<?> sent) {
		lastSent.set(sent);
	}

	/**
	 * Runs the command on the pool, after this thread's last command sent without waiting
	 * if that is still running.
	 */
	private <T> CompletableFuture<T> onPool(Function<RedisConnection, T> command) {
		CompletableFuture<?> previous = lastSent.get();
		if (previous != null) {
			lastSent.remove();
			if (previous.isDone()) {
				previous = null;
			}
		}
		CompletableFuture<?> before = previous;
		try {
			return CompletableFuture.supplyAsync(() -> {
				if (before != null) {
					before.exceptionally(failure -> null).join();
				}
				try (RedisConnection connection = connectionFactory.getConnection()) {
					return command.apply(connection);
				}
			}, pool);
		}
		catch (RejectedExecutionException rejected) {
			return CompletableFuture.failedFuture(new RateLimitStoreException(
					"Redis store is saturated: " + poolSize + " calls already waiting", rejected));
		}
	}

	private static byte[][] keysAndArgs(byte[][] keys, byte[][] args) {
		byte[][] all = new byte[keys.length + args.length][];
		System.arraycopy(keys, 0, all, 0, keys.length);
		System.arraycopy(args, 0, all, keys.length, args.length);
		return all;
	}

	/**
	 * The client's name from the factory's class, without loading any client's class:
	 * {@code JedisConnectionFactory} is {@code jedis}.
	 */
	private static String clientOf(RedisConnectionFactory connectionFactory) {
		String name = connectionFactory.getClass().getName();
		if (name.startsWith("org.springframework.data.redis.connection.jedis.")) {
			return "jedis";
		}
		if (name.startsWith("org.springframework.data.redis.connection.lettuce.")) {
			return "lettuce";
		}
		return name;
	}

}
