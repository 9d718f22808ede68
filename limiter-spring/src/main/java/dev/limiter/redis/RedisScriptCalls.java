package dev.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * The one Redis call layer of the limiter's stores, for every spring-data-redis client:
 * Lettuce's shared connection ({@link LettuceDriver}: written from the calling thread,
 * answered on the event loop) or any other client, Jedis first
 * ({@link BlockingRedisDriver}: a call the request waits for on the request thread
 * itself, its reply read within the request's remaining time, where Jedis lets a call
 * bound its read; every other command on a small pool). Whatever the client and the
 * connection factory's own timeouts, one request waits at most one timeout over all its
 * calls ({@link RequestStoreTime}); a script is sent as EVALSHA and, when the server
 * answers NOSCRIPT, once more as EVAL ({@link EvalShaFallback}, for every call); the
 * scripts are loaded while connecting. A call that fails or times out throws a
 * {@link RateLimitStoreException}.
 *
 * <p>
 * No class of a client that is not on the class path is ever loaded: Lettuce's driver is
 * only named when Lettuce is present.
 */
public final class RedisScriptCalls {

	/**
	 * The longest start-up waits for the first connection, when that is longer than the
	 * request timeout.
	 */
	static final Duration STARTUP_CONNECT = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(RedisScriptCalls.class);

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent(
			"io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands", RedisScriptCalls.class.getClassLoader());

	private static final boolean JEDIS_PRESENT = ClassUtils.isPresent("redis.clients.jedis.Jedis",
			RedisScriptCalls.class.getClassLoader());

	/**
	 * Why a client that blocks cannot serve a caller that must not wait, in one line
	 * ({@code %s}: the client).
	 */
	static final String BLOCKING_CLIENT = "limiter's Redis store on %s blocks the calling thread; "
			+ "a reactive application needs Lettuce with its shared connection (spring.data.redis.client-type=lettuce)";

	private final RedisDriver driver;

	private final RequestTimeout requestTimeout;

	/**
	 * @param connectionFactory any spring-data-redis connection factory
	 * @param timeout how long one request may wait in total, over all its calls
	 * @param maxBlockingCalls calls on the pool that may wait at once; more fail at once
	 * as saturated
	 * @param scripts the scripts to load while connecting, so that the first EVALSHA
	 * finds them
	 */
	public RedisScriptCalls(RedisConnectionFactory connectionFactory, Duration timeout, int maxBlockingCalls,
			List<RedisScript<List>> scripts) {
		this.requestTimeout = new RequestTimeout(timeout);
		long timeoutNanos = timeout.toNanos();
		List<byte[]> scriptBytes = scripts.stream().map(EvalShaFallback::body).toList();
		ThreadPoolExecutor pool = pool(maxBlockingCalls);
		long startupNanos = Math.max(timeoutNanos, STARTUP_CONNECT.toNanos());
		RedisDriver lettuce = LETTUCE_PRESENT
				? LettuceDriver.sharedConnectionOf(connectionFactory, pool, scriptBytes, startupNanos) : null;
		// Jedis's Cluster client hides its connections per call: its calls stay on the
		// pool (JedisReadTimeouts.of answers null for it).
		this.driver = lettuce != null ? lettuce : new BlockingRedisDriver(connectionFactory, pool, maxBlockingCalls,
				scriptBytes, JEDIS_PRESENT ? JedisReadTimeouts.of(connectionFactory) : null);
		connectEagerly(startupNanos);
	}

	public Duration timeout() {
		return requestTimeout.timeout();
	}

	/**
	 * The client the calls go through, as {@code spring.data.redis.client-type} names it
	 * ({@code lettuce} or {@code jedis}).
	 */
	public String client() {
		return driver.client();
	}

	/** Deletes keys within the request's timeout. */
	public void delete(List<String> names) {
		byte[][] keys = bytes(names.toArray());
		requestTimeout.await(sent(() -> driver.delete(keys)));
	}

	/**
	 * Sends ZREM and returns at once; a failure is only logged at debug. On Lettuce's
	 * shared connection commands run in the order they were written, so a decision this
	 * thread asks for next already sees the member gone.
	 */
	public void removeWithoutWaiting(String key, String member) {
		byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
		byte[] memberBytes = member.getBytes(StandardCharsets.UTF_8);
		CompletableFuture<?> sent = sent(() -> driver.zrem(keyBytes, memberBytes));
		driver.sentWithoutWaiting(sent);
		sent.exceptionally(failure -> notWaitedForFailed("release a lease", failure));
	}

	/**
	 * Runs a script within the request's timeout and returns its reply, never
	 * {@code null}.
	 */
	public List<Object> execute(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
		// A request with no time left takes the path that fails it at once.
		if (requestTimeout.timeLeft() && driver.claimCallingThread()) {
			byte[][] keyBytes = bytes(scriptKeys.toArray());
			byte[][] argBytes = bytes(args);
			return replyOf(requestTimeout.onThisThread(deadline -> driver.onCallingThread(deadline,
					commands -> EvalShaFallback.onThisThread(script, keyBytes, argBytes, commands))));
		}
		CompletableFuture<List<Object>> reply = script(script, scriptKeys, args);
		return replyOf(requestTimeout.await(reply));
	}

	/**
	 * Sends a script and returns at once; a failure is only logged at debug, saying what
	 * could not be done.
	 * @param what what the script does, as in "could not ..."
	 */
	public void executeWithoutWaiting(RedisScript<List> script, List<String> scriptKeys, Object[] args, String what) {
		CompletableFuture<List<Object>> sent = script(script, scriptKeys, args);
		driver.sentWithoutWaiting(sent);
		sent.exceptionally(failure -> notWaitedForFailed(what, failure));
	}

	/**
	 * Sends a script and returns at once; the returned reply is read either way: waiting
	 * for it within what the request has left of its timeout at that moment (the time the
	 * script travelled meanwhile is not a wait), or without waiting, within one timeout
	 * of the send.
	 */
	public SentScript send(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
		long deadline = requestTimeout.deadlineOfCallSentNow();
		CompletableFuture<List<Object>> reply = script(script, scriptKeys, args);
		return new SentScript() {

			@Override
			public List<Object> get() {
				return replyOf(requestTimeout.await(reply));
			}

			@Override
			public CompletionStage<List<Object>> toStage() {
				return requestTimeout.within(reply.copy(), deadline).thenApply(RedisScriptCalls::replyOf);
			}

		};
	}

	/**
	 * Runs a script for a caller that must not wait (a reactive request): sent now, the
	 * stage completes with its reply, or exceptionally with a
	 * {@link RateLimitStoreException} when none came within one timeout of the send (or
	 * what a request open on this thread has left of it), on a timer, never by a waiting
	 * thread.
	 * @throws UnsupportedOperationException when the client blocks the calling thread
	 */
	public CompletionStage<List<Object>> executeWithoutBlocking(RedisScript<List> script, List<String> scriptKeys,
			Object[] args) {
		if (!driver.answersWithoutBlocking()) {
			throw new UnsupportedOperationException(BLOCKING_CLIENT.formatted(driver.client()));
		}
		long deadline = requestTimeout.deadlineOfCallSentNow();
		return requestTimeout.within(script(script, scriptKeys, args), deadline).thenApply(RedisScriptCalls::replyOf);
	}

	/**
	 * Whether every call can be made without blocking the calling thread
	 * ({@link #executeWithoutBlocking}).
	 */
	public boolean answersWithoutBlocking() {
		return driver.answersWithoutBlocking();
	}

	/**
	 * Sends a script and returns at once; the stage completes with the reply, or
	 * exceptionally with a {@link RateLimitStoreException} when none came within the
	 * timeout.
	 */
	public CompletionStage<List<Object>> sendWithoutWaiting(RedisScript<List> script, List<String> scriptKeys,
			Object[] args) {
		CompletableFuture<List<Object>> sent = script(script, scriptKeys, args);
		driver.sentWithoutWaiting(sent);
		return requestTimeout.within(sent, System.nanoTime() + requestTimeout.timeout().toNanos())
			.thenApply(RedisScriptCalls::replyOf);
	}

	private CompletableFuture<List<Object>> script(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
		return EvalShaFallback.send(script, bytes(scriptKeys.toArray()), bytes(args), driver);
	}

	/**
	 * A command that fails while being sent fails its future like one that fails later.
	 */
	static <T> CompletableFuture<T> sent(Supplier<CompletableFuture<T>> command) {
		try {
			return command.get();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private static List<Object> replyOf(List<Object> raw) {
		if (raw == null) {
			throw new RateLimitStoreException("Redis store got no answer from its script");
		}
		return raw;
	}

	/**
	 * Connects now, so that the first decision does not pay for it. Start-up may wait
	 * longer than one request would (a JVM still loading classes easily spends a second
	 * on the first connection), but a Redis that is down holds it for at most
	 * {@link #STARTUP_CONNECT} (the first decisions then go to the fallback).
	 */
	private void connectEagerly(long startupNanos) {
		try {
			requestTimeout.awaitUntil(sent(driver::connect), System.nanoTime() + startupNanos);
		}
		catch (RateLimitStoreException notYet) {
			logger.debug("Redis store not connected at start-up; it keeps trying on demand", notYet);
		}
	}

	/**
	 * Only at debug: what is sent without waiting expires by itself (a lease, a
	 * reservation), so a lost command only holds a slot until then.
	 */
	private <T> T notWaitedForFailed(String what, Throwable failure) {
		if (logger.isDebugEnabled()) {
			logger.debug("Redis store could not " + what + "; it will expire by itself", failure);
		}
		return null;
	}

	private static ThreadPoolExecutor pool(int maxBlockingCalls) {
		AtomicInteger threads = new AtomicInteger();
		return new ThreadPoolExecutor(0, maxBlockingCalls, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
			Thread thread = new Thread(runnable, "limiter-redis-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
	}

	private static byte[][] bytes(Object[] values) {
		byte[][] bytes = new byte[values.length][];
		for (int i = 0; i < values.length; i++) {
			bytes[i] = String.valueOf(values[i]).getBytes(StandardCharsets.UTF_8);
		}
		return bytes;
	}

	/**
	 * A script of this package, read once, its digest computed once
	 * ({@link LoadedScript}).
	 */
	public static RedisScript<List> script(String name) {
		return LoadedScript.load(name);
	}

	/** A script sent without waiting, whose reply is read once, either way. */
	public interface SentScript {

		/**
		 * The reply, waiting for it within what the request has left of its timeout.
		 * @throws RateLimitStoreException when none came in time or the call failed
		 */
		List<Object> get();

		/**
		 * The reply without waiting: the stage fails with a
		 * {@link RateLimitStoreException} when none came within one timeout of the send.
		 */
		CompletionStage<List<Object>> toStage();

	}

}
