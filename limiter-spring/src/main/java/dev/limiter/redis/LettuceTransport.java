package dev.limiter.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.Supplier;

import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * The waiting half of {@link LettuceScriptCalls}: one timeout per request over all its
 * calls ({@link RequestStoreTime}), whatever the connection factory's own timeouts say.
 * On a shared Lettuce connection a call is awaited on its future with no extra thread;
 * other drivers, and calls with no asynchronous API, run on a small pool that the timeout
 * can abandon. A call that fails or times out throws a {@link RateLimitStoreException}.
 */
final class LettuceTransport {

	/**
	 * The longest start-up waits for the first connection, when that is longer than the
	 * request timeout.
	 */
	static final Duration STARTUP_CONNECT = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(LettuceScriptCalls.class);

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent(
			"io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands", LettuceTransport.class.getClassLoader());

	private final RedisConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final long timeoutNanos;

	private final Duration timeout;

	/** Runs on each new shared connection before any call uses it. */
	private final Consumer<RedisClusterAsyncCommands<byte[], byte[]>> onConnect;

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

	LettuceTransport(RedisConnectionFactory connectionFactory, Duration timeout, int maxBlockingCalls,
			Consumer<RedisClusterAsyncCommands<byte[], byte[]>> onConnect) {
		this.connectionFactory = connectionFactory;
		this.redis = new StringRedisTemplate(connectionFactory);
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
		this.onConnect = onConnect;
		AtomicInteger threads = new AtomicInteger();
		this.blockingCalls = new ThreadPoolExecutor(0, maxBlockingCalls, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
				runnable -> {
					Thread thread = new Thread(runnable, "limiter-redis-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
	}

	/**
	 * Connects now, so that the first decision does not pay for it. Start-up may wait
	 * longer than one request would (a JVM still loading classes easily spends a second
	 * on the first connection), but a Redis that is down holds it for at most
	 * {@link #STARTUP_CONNECT} (the first decisions then go to the fallback).
	 */
	void connectEagerly() {
		if (sharesLettuceConnection()) {
			try {
				await(asyncCommands(), System.nanoTime() + Math.max(timeoutNanos, STARTUP_CONNECT.toNanos()));
			}
			catch (RateLimitStoreException notYet) {
				logger.debug("Redis store not connected at start-up; it keeps trying on demand", notYet);
			}
		}
	}

	Duration timeout() {
		return timeout;
	}

	StringRedisTemplate template() {
		return redis;
	}

	boolean sharesLettuceConnection() {
		return LETTUCE_PRESENT && connectionFactory instanceof LettuceConnectionFactory lettuce
				&& lettuce.getShareNativeConnection();
	}

	/**
	 * Runs one call against the request's deadline and books the time it took on the
	 * request.
	 */
	<T> T timed(LongFunction<T> call) {
		long start = System.nanoTime();
		try {
			return call.apply(requestDeadline(start));
		}
		finally {
			RequestStoreTime.spend(System.nanoTime() - start);
		}
	}

	/** The shared connection's commands, waited for until the deadline at the most. */
	RedisClusterAsyncCommands<byte[], byte[]> commands(long deadline) {
		return await(asyncCommands(), deadline);
	}

	/** The shared connection's commands if it is up, else {@code null}; never waits. */
	RedisClusterAsyncCommands<byte[], byte[]> commandsIfConnected() {
		if (!sharesLettuceConnection()) {
			return null;
		}
		CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connection = asyncCommands();
		return connection.isDone() && !connection.isCompletedExceptionally() ? connection.join() : null;
	}

	/** Runs a blocking call on the pool and waits for it until the deadline. */
	<T> T withinTimeout(Supplier<T> call, long deadline) {
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

	/** Runs a blocking call on the pool without waiting for it. */
	CompletableFuture<Void> onPool(Runnable call) {
		return CompletableFuture.runAsync(call, blockingCalls);
	}

	/** Runs a blocking call on the pool without waiting for its answer. */
	<T> CompletableFuture<T> supplyOnPool(Supplier<T> call) {
		return CompletableFuture.supplyAsync(call, blockingCalls);
	}

	<T> T await(Future<T> future, long deadline) {
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
								onConnect.accept(commands);
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

}
