package dev.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * How a Redis store runs its scripts within its timeout, whatever the connection
 * factory's own timeouts say: one timeout per request over all its calls
 * ({@link RequestStoreTime}, enforced by {@link LettuceTransport}). On a shared Lettuce
 * connection a script is sent as EVALSHA on the asynchronous API (EVAL when the server
 * answers NOSCRIPT) and awaited with no extra thread; other drivers run it on a small
 * pool that the timeout can abandon. The scripts are loaded while connecting. A call that
 * fails or times out throws a {@link RateLimitStoreException}.
 */
public final class LettuceScriptCalls {

	private static final Log logger = LogFactory.getLog(LettuceScriptCalls.class);

	private final List<RedisScript<List>> scripts;

	private final LettuceTransport transport;

	private final StringRedisTemplate redis;

	/**
	 * @param connectionFactory any spring-data-redis connection factory
	 * @param timeout how long one request may wait in total, over all its calls
	 * @param maxBlockingCalls calls on the pool that may wait at once; more fail at once
	 * as saturated
	 * @param scripts the scripts to load while connecting, so that the first EVALSHA
	 * finds them
	 */
	public LettuceScriptCalls(RedisConnectionFactory connectionFactory, Duration timeout, int maxBlockingCalls,
			List<RedisScript<List>> scripts) {
		this.scripts = List.copyOf(scripts);
		this.transport = new LettuceTransport(connectionFactory, timeout, maxBlockingCalls, this::loadScripts);
		this.redis = transport.template();
		transport.connectEagerly();
	}

	public Duration timeout() {
		return transport.timeout();
	}

	/** Deletes keys within the request's timeout. */
	public void delete(List<String> names) {
		transport.timed(deadline -> transport.withinTimeout(() -> redis.delete(names), deadline));
	}

	/**
	 * Sends ZREM and returns at once; a failure is only logged at debug. On the shared
	 * Lettuce connection commands run in the order they were written, so a decision this
	 * thread asks for next already sees the member gone.
	 */
	public void removeWithoutWaiting(String key, String member) {
		byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
		byte[] memberBytes = member.getBytes(StandardCharsets.UTF_8);
		try {
			if (transport.sharesLettuceConnection()) {
				redis.execute((RedisCallback<Void>) connection -> {
					zremWithoutWaiting(connection.getNativeConnection(), keyBytes, memberBytes);
					return null;
				});
			}
			else {
				transport
					.onPool(() -> redis.execute(
							(RedisCallback<Long>) connection -> connection.zSetCommands().zRem(keyBytes, memberBytes)))
					.exceptionally(this::releaseFailed);
			}
		}
		catch (RuntimeException e) {
			releaseFailed(e);
		}
	}

	/**
	 * Runs a script within the request's timeout and returns its reply, never
	 * {@code null}.
	 */
	public List<Object> execute(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
		List<Object> raw = transport
			.timed(deadline -> transport.sharesLettuceConnection() ? evalAsync(script, scriptKeys, args, deadline)
					: transport.withinTimeout(() -> redis.execute(script, scriptKeys, args), deadline));
		if (raw == null) {
			throw new RateLimitStoreException("Redis store got no answer from its script");
		}
		return raw;
	}

	/**
	 * Sends a script and returns at once (EVAL when the server answers NOSCRIPT); a
	 * failure is only logged at debug. Before the shared connection is up, the call runs
	 * on the pool instead.
	 */
	public void executeWithoutWaiting(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
		try {
			RedisClusterAsyncCommands<byte[], byte[]> commands = transport.commandsIfConnected();
			if (commands != null) {
				byte[][] keyBytes = bytes(scriptKeys.toArray());
				byte[][] argBytes = bytes(args);
				commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, keyBytes, argBytes)
					.exceptionally(failure -> {
						if (failure instanceof RedisNoScriptException
								|| failure.getCause() instanceof RedisNoScriptException) {
							eval(commands, script, keyBytes, argBytes).exceptionally(this::releaseFailed);
							return null;
						}
						return releaseFailed(failure);
					});
			}
			else {
				transport.onPool(() -> redis.execute(script, scriptKeys, args)).exceptionally(this::releaseFailed);
			}
		}
		catch (RuntimeException e) {
			releaseFailed(e);
		}
	}

	private static byte[][] bytes(Object[] values) {
		byte[][] bytes = new byte[values.length][];
		for (int i = 0; i < values.length; i++) {
			bytes[i] = String.valueOf(values[i]).getBytes(StandardCharsets.UTF_8);
		}
		return bytes;
	}

	private List<Object> evalAsync(RedisScript<List> script, List<String> scriptKeys, Object[] args, long deadline) {
		RedisClusterAsyncCommands<byte[], byte[]> commands = transport.commands(deadline);
		byte[][] keyBytes = bytes(scriptKeys.toArray());
		byte[][] argBytes = bytes(args);
		return awaitScript(commands, script, keyBytes, argBytes,
				commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, keyBytes, argBytes), deadline);
	}

	/**
	 * Sends a script and returns at once; the returned call reads the reply, waiting for
	 * it within what the request has left of its timeout at that moment (the time the
	 * script travelled meanwhile is not a wait). Before the shared connection is up, or
	 * on another driver, the script is run only when the reply is read.
	 */
	public Supplier<List<Object>> send(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
		RedisClusterAsyncCommands<byte[], byte[]> commands = transport.commandsIfConnected();
		if (commands == null) {
			return () -> execute(script, scriptKeys, args);
		}
		byte[][] keyBytes = bytes(scriptKeys.toArray());
		byte[][] argBytes = bytes(args);
		RedisFuture<List<Object>> sent = commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, keyBytes, argBytes);
		return () -> {
			List<Object> raw = transport
				.timed(deadline -> awaitScript(commands, script, keyBytes, argBytes, sent, deadline));
			if (raw == null) {
				throw new RateLimitStoreException("Redis store got no answer from its script");
			}
			return raw;
		};
	}

	/**
	 * Sends a script and returns at once; the stage completes with the reply (EVAL when
	 * the server answers NOSCRIPT), or exceptionally with a
	 * {@link RateLimitStoreException} when none came within the timeout. Before the
	 * shared connection is up, or on another driver, the script runs on the pool.
	 */
	public CompletionStage<List<Object>> sendWithoutWaiting(RedisScript<List> script, List<String> scriptKeys,
			Object[] args) {
		CompletableFuture<List<Object>> reply;
		try {
			RedisClusterAsyncCommands<byte[], byte[]> commands = transport.commandsIfConnected();
			if (commands == null) {
				reply = transport.supplyOnPool(() -> (List<Object>) redis.execute(script, scriptKeys, args));
			}
			else {
				byte[][] keyBytes = bytes(scriptKeys.toArray());
				byte[][] argBytes = bytes(args);
				RedisFuture<List<Object>> sent = commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, keyBytes,
						argBytes);
				reply = sent.handle((answer, failure) -> {
					if (failure == null) {
						return CompletableFuture.completedFuture(answer);
					}
					if (noScript(failure)) {
						return eval(commands, script, keyBytes, argBytes).toCompletableFuture();
					}
					return CompletableFuture.<List<Object>>failedFuture(failure);
				}).thenCompose(answer -> answer).toCompletableFuture();
			}
		}
		catch (RuntimeException ex) {
			reply = CompletableFuture.failedFuture(ex);
		}
		return reply.orTimeout(transport.timeout().toMillis(), TimeUnit.MILLISECONDS).handle((answer, failure) -> {
			if (failure == null && answer != null) {
				return answer;
			}
			Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
					: failure;
			throw new RateLimitStoreException(
					cause == null ? "Redis store got no answer from its script" : "Redis store failed: " + cause,
					cause);
		});
	}

	private static boolean noScript(Throwable failure) {
		return failure instanceof RedisNoScriptException || failure.getCause() instanceof RedisNoScriptException;
	}

	private List<Object> awaitScript(RedisClusterAsyncCommands<byte[], byte[]> commands, RedisScript<List> script,
			byte[][] keyBytes, byte[][] argBytes, RedisFuture<List<Object>> sent, long deadline) {
		try {
			return transport.await(sent, deadline);
		}
		catch (RateLimitStoreException e) {
			if (!(e.getCause() instanceof RedisNoScriptException)) {
				throw e;
			}
			// EVAL loads the script into the server's cache, so the next call's EVALSHA
			// finds it.
			return transport.await(eval(commands, script, keyBytes, argBytes), deadline);
		}
	}

	private static RedisFuture<List<Object>> eval(RedisClusterAsyncCommands<byte[], byte[]> commands,
			RedisScript<List> script, byte[][] keyBytes, byte[][] argBytes) {
		return commands.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), ScriptOutputType.MULTI,
				keyBytes, argBytes);
	}

	/**
	 * Loads the scripts while connecting, so that the first decision's EVALSHA finds
	 * them. On a Cluster the command goes to every master. A failure here is harmless:
	 * EVALSHA falls back to EVAL on NOSCRIPT.
	 */
	private void loadScripts(RedisClusterAsyncCommands<byte[], byte[]> commands) {
		try {
			for (RedisScript<List> script : scripts) {
				commands.scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8))
					.get(Math.max(transport.timeout().toNanos(), TimeUnit.SECONDS.toNanos(5)), TimeUnit.NANOSECONDS);
			}
		}
		catch (Exception e) {
			if (e instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			logger.debug("Redis store could not preload its scripts; EVALSHA will load them on first use", e);
		}
	}

	@SuppressWarnings("unchecked")
	private void zremWithoutWaiting(Object nativeConnection, byte[] leasesKey, byte[] member) {
		if (nativeConnection instanceof RedisClusterAsyncCommands<?, ?> async) {
			((RedisClusterAsyncCommands<byte[], byte[]>) async).zrem(leasesKey, member)
				.exceptionally(this::releaseFailed);
		}
		else {
			throw new IllegalStateException("not a Lettuce connection: " + nativeConnection);
		}
	}

	private <T> T releaseFailed(Throwable failure) {
		// The lease still expires by itself; a lost release only holds a slot until then.
		if (logger.isDebugEnabled()) {
			logger.debug("Redis store could not release a lease; it will expire by itself", failure);
		}
		return null;
	}

	/**
	 * Reads the script once, with this class's own class loader: a resource resolved
	 * later through a thread's context class loader may belong to a web application that
	 * has since been stopped.
	 */
	public static RedisScript<List> script(String name) {
		try (var in = LettuceScriptCalls.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new IllegalStateException("missing script dev/limiter/redis/" + name);
			}
			return RedisScript.of(new String(in.readAllBytes(), StandardCharsets.UTF_8), List.class);
		}
		catch (java.io.IOException e) {
			throw new IllegalStateException("cannot read script dev/limiter/redis/" + name, e);
		}
	}

}
