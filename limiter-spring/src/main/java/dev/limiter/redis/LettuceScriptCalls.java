package dev.limiter.redis;

import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * How a Redis store talks to Redis within its timeout, whatever the connection factory's
 * own timeouts say: one timeout per request over all its calls
 * ({@link RequestStoreTime}). On a shared Lettuce connection a script is sent as EVALSHA
 * on the asynchronous API (EVAL when the server answers NOSCRIPT) and awaited with no
 * extra thread; other drivers, and calls with no asynchronous API, run on a small pool
 * that the timeout can abandon. A call that fails or times out throws a
 * {@link RateLimitStoreException}.
 */
public final class LettuceScriptCalls {

	/**
	 * The longest start-up waits for the first connection, when that is longer than the
	 * request timeout.
	 */
	static final Duration STARTUP_CONNECT = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(LettuceScriptCalls.class);

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent(
			"io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands", LettuceScriptCalls.class.getClassLoader());

	private final RedisConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final List<RedisScript<List>> scripts;

	private final long timeoutNanos;

	private final Duration timeout;

	/**
	 * The shared Lettuce connection's asynchronous commands, obtained off the request
	 * path.
	 */
	private volatile CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> asyncCommands;

	/**
	 * Runs calls that have no asynchronous API (other drivers, deletes) so that a timeout
	 * can abandon them.
	 */
	private final ThreadPoolExecutor blockingCalls;

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
		this.connectionFactory = connectionFactory;
		this.redis = new StringRedisTemplate(connectionFactory);
		this.scripts = List.copyOf(scripts);
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
		AtomicInteger threads = new AtomicInteger();
		this.blockingCalls = new ThreadPoolExecutor(0, maxBlockingCalls, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
				runnable -> {
					Thread thread = new Thread(runnable, "limiter-redis-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		if (sharesLettuceConnection()) {
			// Connect now, so that the first decision does not pay for it. Start-up may
			// wait longer than one
			// request would (a JVM still loading classes easily spends a second on the
			// first connection), but a
			// Redis that is down holds it for at most STARTUP_CONNECT (the first
			// decisions then go to the fallback).
			try {
				await(asyncCommands(), System.nanoTime() + Math.max(timeoutNanos, STARTUP_CONNECT.toNanos()));
			}
			catch (RateLimitStoreException notYet) {
				logger.debug("Redis store not connected at start-up; it keeps trying on demand", notYet);
			}
		}
	}

	public Duration timeout() {
		return timeout;
	}

	/** Deletes keys within the request's timeout. */
	public void delete(List<String> names) {
		timed(deadline -> withinTimeout(() -> redis.delete(names), deadline));
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
			if (sharesLettuceConnection()) {
				redis.execute((RedisCallback<Void>) connection -> {
					zremWithoutWaiting(connection.getNativeConnection(), keyBytes, memberBytes);
					return null;
				});
			}
			else {
				CompletableFuture
					.runAsync(() -> redis.execute(
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
	@SuppressWarnings("unchecked")
	public List<Object> execute(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
		List<Object> raw = timed(deadline -> sharesLettuceConnection() ? evalAsync(script, scriptKeys, args, deadline)
				: withinTimeout(() -> redis.execute(script, scriptKeys, args), deadline));
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
			CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connection = sharesLettuceConnection()
					? asyncCommands() : null;
			if (connection != null && connection.isDone() && !connection.isCompletedExceptionally()) {
				RedisClusterAsyncCommands<byte[], byte[]> commands = connection.join();
				byte[][] keyBytes = bytes(scriptKeys.toArray());
				byte[][] argBytes = bytes(args);
				commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, keyBytes, argBytes)
					.exceptionally(failure -> {
						if (failure instanceof RedisNoScriptException
								|| failure.getCause() instanceof RedisNoScriptException) {
							commands
								.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8),
										ScriptOutputType.MULTI, keyBytes, argBytes)
								.exceptionally(this::releaseFailed);
							return null;
						}
						return releaseFailed(failure);
					});
			}
			else {
				CompletableFuture.runAsync(() -> redis.execute(script, scriptKeys, args), blockingCalls)
					.exceptionally(this::releaseFailed);
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

	/**
	 * Runs one call against the request's deadline and books the time it took on the
	 * request.
	 */
	private <T> T timed(LongFunction<T> call) {
		long start = System.nanoTime();
		try {
			return call.apply(requestDeadline(start));
		}
		finally {
			RequestStoreTime.spend(System.nanoTime() - start);
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private List<Object> evalAsync(RedisScript<List> script, List<String> scriptKeys, Object[] args, long deadline) {
		RedisClusterAsyncCommands<byte[], byte[]> commands = await(asyncCommands(), deadline);
		byte[][] keyBytes = bytes(scriptKeys.toArray());
		byte[][] argBytes = bytes(args);
		try {
			return (List<Object>) await(
					(Future) commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, keyBytes, argBytes), deadline);
		}
		catch (RateLimitStoreException e) {
			if (!(e.getCause() instanceof RedisNoScriptException)) {
				throw e;
			}
			// EVAL loads the script into the server's cache, so the next call's EVALSHA
			// finds it.
			return (List<Object>) await(
					(Future) commands.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8),
							ScriptOutputType.MULTI, keyBytes, argBytes),
					deadline);
		}
	}

	/**
	 * The shared connection's asynchronous commands. Obtaining them may connect, which
	 * can block for the driver's connect timeout; that happens on the pool, so a caller
	 * waits at most its own deadline.
	 */
	@SuppressWarnings("unchecked")
	private CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> asyncCommands() {
		CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> current = asyncCommands;
		if (current == null || current.isCompletedExceptionally()) {
			synchronized (this) {
				current = asyncCommands;
				if (current == null || current.isCompletedExceptionally()) {
					current = new CompletableFuture<>();
					CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connecting = current;
					try {
						blockingCalls.execute(() -> {
							try {
								RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) redis
									.execute((RedisCallback<Object>) connection -> connection.getNativeConnection());
								loadScripts(commands);
								connecting.complete(commands);
							}
							catch (Throwable failure) {
								connecting.completeExceptionally(failure);
							}
						});
					}
					catch (RuntimeException rejected) {
						connecting.completeExceptionally(rejected);
					}
					asyncCommands = current;
				}
			}
		}
		return current;
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
					.get(Math.max(timeoutNanos, TimeUnit.SECONDS.toNanos(5)), TimeUnit.NANOSECONDS);
			}
		}
		catch (Exception e) {
			if (e instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			logger.debug("Redis store could not preload its scripts; EVALSHA will load them on first use", e);
		}
	}

	/**
	 * The end of this call's wait: one timeout per request, so a call gets what earlier
	 * calls of the same request left. A request that has used it all fails at once, and
	 * the breaker counts that like any timeout: a store slower than the timeout per
	 * request degrades even when each call alone is faster.
	 */
	private long requestDeadline(long start) {
		long left = timeoutNanos - RequestStoreTime.spentNanos();
		if (left <= 0) {
			throw new RateLimitStoreException(
					"Redis store: this request already waited " + timeout.toMillis() + "ms for it");
		}
		return start + left;
	}

	private <T> T withinTimeout(Supplier<T> call, long deadline) {
		CompletableFuture<T> future;
		try {
			future = CompletableFuture.supplyAsync(call, blockingCalls);
		}
		catch (RuntimeException rejected) {
			throw new RateLimitStoreException(
					"Redis store is saturated: " + blockingCalls.getMaximumPoolSize() + " calls already waiting",
					rejected);
		}
		return await(future, deadline);
	}

	private <T> T await(Future<T> future, long deadline) {
		try {
			return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException e) {
			future.cancel(false);
			throw new RateLimitStoreException("Redis store did not answer within " + timeout.toMillis() + "ms", e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new RateLimitStoreException("interrupted while waiting for the Redis store", e);
		}
		catch (ExecutionException e) {
			Throwable cause = e.getCause() != null ? e.getCause() : e;
			throw new RateLimitStoreException("Redis store failed: " + cause.getMessage(), cause);
		}
	}

	private boolean sharesLettuceConnection() {
		return LETTUCE_PRESENT && connectionFactory instanceof LettuceConnectionFactory lettuce
				&& lettuce.getShareNativeConnection();
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
