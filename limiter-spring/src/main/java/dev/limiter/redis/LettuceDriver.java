package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Lettuce's shared connection (standalone, Sentinel or Cluster): every command is written
 * on its asynchronous API from the calling thread and completes on the event loop, so a
 * request waits for its reply with no thread of its own. Commands on the shared
 * connection run in the order they were written. Only {@link RedisScriptCalls} creates
 * one, and only when Lettuce is on the class path.
 */
final class LettuceDriver implements RedisDriver {

	private static final Log logger = LogFactory.getLog(RedisScriptCalls.class);

	private final RedisConnectionFactory connectionFactory;

	/** Connecting can block for the driver's connect timeout: it runs here. */
	private final Executor connecting;

	private final List<byte[]> scripts;

	private final long scriptLoadNanos;

	/** The shared connection's asynchronous commands, obtained off the request path. */
	private volatile CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> asyncCommands;

	private LettuceDriver(RedisConnectionFactory connectionFactory, Executor connecting, List<byte[]> scripts,
			long scriptLoadNanos) {
		this.connectionFactory = connectionFactory;
		this.connecting = connecting;
		this.scripts = scripts;
		this.scriptLoadNanos = scriptLoadNanos;
	}

	/**
	 * A driver on the factory's shared connection, or {@code null} when the factory is
	 * not Lettuce's or shares no connection (then every call needs a connection of its
	 * own, which {@link BlockingRedisDriver} handles).
	 */
	static RedisDriver sharedConnectionOf(RedisConnectionFactory connectionFactory, Executor connecting,
			List<byte[]> scripts, long scriptLoadNanos) {
		if (connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.getShareNativeConnection()) {
			return new LettuceDriver(connectionFactory, connecting, scripts, scriptLoadNanos);
		}
		return null;
	}

	@Override
	public CompletableFuture<List<Object>> evalSha(String sha1, byte[][] keys, byte[][] args) {
		return send(commands -> commands.<List<Object>>evalsha(sha1, ScriptOutputType.MULTI, keys, args)
			.toCompletableFuture());
	}

	@Override
	public CompletableFuture<List<Object>> eval(byte[] script, byte[][] keys, byte[][] args) {
		return send(commands -> commands.<List<Object>>eval(script, ScriptOutputType.MULTI, keys, args)
			.toCompletableFuture());
	}

	@Override
	public CompletableFuture<?> zrem(byte[] key, byte[] member) {
		return send(commands -> commands.zrem(key, member).toCompletableFuture());
	}

	@Override
	public CompletableFuture<?> delete(byte[][] keys) {
		return send(commands -> commands.del(keys).toCompletableFuture());
	}

	@Override
	public CompletableFuture<?> connect() {
		return asyncCommands();
	}

	@Override
	public String client() {
		return "lettuce";
	}

	/**
	 * Written from the calling thread, answered on the event loop: connecting (which can
	 * block) runs on the connecting executor, never here.
	 */
	@Override
	public boolean answersWithoutBlocking() {
		return true;
	}

	/**
	 * Writes the command now when the connection is up, else as soon as it is (the
	 * request's timeout still bounds the wait).
	 */
	private <T> CompletableFuture<T> send(
			Function<RedisClusterAsyncCommands<byte[], byte[]>, CompletableFuture<T>> command) {
		CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connection = asyncCommands();
		if (connection.isDone() && !connection.isCompletedExceptionally()) {
			return command.apply(connection.join());
		}
		return connection.thenCompose(command);
	}

	@SuppressWarnings("unchecked")
	private CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> asyncCommands() {
		CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> current = asyncCommands;
		if (current != null && !current.isCompletedExceptionally()) {
			return current;
		}
		synchronized (this) {
			current = asyncCommands;
			if (current == null || current.isCompletedExceptionally()) {
				CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connected = new CompletableFuture<>();
				try {
					connecting.execute(() -> {
						try {
							RedisClusterAsyncCommands<byte[], byte[]> commands;
							// Closing the wrapper leaves the shared native connection
							// open.
							try (RedisConnection connection = connectionFactory.getConnection()) {
								commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
							}
							loadScripts(commands);
							connected.complete(commands);
						}
						catch (Throwable failure) {
							connected.completeExceptionally(failure);
						}
					});
				}
				catch (RuntimeException rejected) {
					connected.completeExceptionally(rejected);
				}
				asyncCommands = connected;
				current = connected;
			}
			return current;
		}
	}

	/**
	 * Loads the scripts while connecting, so that the first decision's EVALSHA finds
	 * them. On a Cluster the command goes to every master. A failure here is harmless:
	 * EVALSHA falls back to EVAL on NOSCRIPT.
	 */
	private void loadScripts(RedisClusterAsyncCommands<byte[], byte[]> commands) {
		try {
			for (byte[] script : scripts) {
				commands.scriptLoad(script).get(scriptLoadNanos, TimeUnit.NANOSECONDS);
			}
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			logger.debug("Redis store could not preload its scripts; EVALSHA will load them on first use", ex);
		}
	}

}
