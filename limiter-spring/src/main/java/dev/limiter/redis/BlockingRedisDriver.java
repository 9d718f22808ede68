package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.limiter.core.RateLimitStoreException;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

/**
 * Any spring-data-redis client whose commands block the calling thread (Jedis, or Lettuce
 * without a shared connection), on a connection taken from the factory for each command.
 * Where the client lets a call bound the read of its reply ({@link ReadTimeouts}: a
 * pooled Jedis, standalone or Sentinel), a call that waits for its reply runs on the
 * calling thread itself, its reply read until the request's deadline: the request's one
 * wait, with no hand-off. Every other command runs on a small pool (standalone, Sentinel
 * or Cluster alike), so that the request waits for the future and its timeout can abandon
 * a call the client would still be waiting on; a full pool fails the call at once as
 * saturated. The pool also takes the calling thread's calls while the last one failed on
 * its connection: a new connection opens and greets the server (Jedis's handshake) within
 * the client's own timeouts, not the request's, so it is opened off the request thread
 * until Redis answers again.
 */
final class BlockingRedisDriver implements RedisDriver {

	private final RedisConnectionFactory connectionFactory;

	private final Executor pool;

	private final int poolSize;

	private final List<byte[]> scripts;

	private final String client;

	/**
	 * The command each thread last sent without waiting, which the request's next command
	 * runs after.
	 */
	private final SentThisRequest lastSent = new SentThisRequest();

	/**
	 * Completes once this thread's last script sent through the pool has been written:
	 * the request's next call on the calling thread is written after it.
	 */
	private final SentThisRequest lastWritten = new SentThisRequest();

	/** {@code null} when every command runs on the pool. */
	private final ReadTimeouts readTimeouts;

	/**
	 * The client pool's connections the limiter may hold at once, so that a call on the
	 * calling thread never waits for a connection another of the limiter's calls holds;
	 * {@code null} with no {@link #readTimeouts}.
	 */
	private final Semaphore connections;

	/**
	 * Whether the last call that ended answered (or failed with Redis's own error): only
	 * then may the next run on the calling thread.
	 */
	private volatile boolean answering;

	BlockingRedisDriver(RedisConnectionFactory connectionFactory, Executor pool, int poolSize, List<byte[]> scripts,
			ReadTimeouts readTimeouts) {
		this.connectionFactory = connectionFactory;
		this.pool = pool;
		this.poolSize = poolSize;
		this.scripts = scripts;
		this.client = RedisDriver.clientOf(connectionFactory);
		this.readTimeouts = readTimeouts;
		this.connections = readTimeouts != null ? new Semaphore(readTimeouts.connections()) : null;
	}

	/**
	 * On the pool; where calls also run on the calling thread, the thread's next such
	 * call waits until this one has been written (not answered), so that Redis gets the
	 * two in the order they were sent, while both travel at once (the guard's
	 * reservation, sent before the credential lookup, then the decision).
	 */
	@Override
	public CompletableFuture<List<Object>> evalSha(String sha1, byte[][] keys, byte[][] args) {
		byte[][] keysAndArgs = RedisDriver.keysAndArgs(keys, args);
		if (readTimeouts == null) {
			return onPool(connection -> connection.scriptingCommands()
				.<List<Object>>evalSha(sha1, ReturnType.MULTI, keys.length, keysAndArgs));
		}
		CompletableFuture<Void> written = new CompletableFuture<>();
		CompletableFuture<List<Object>> reply = onPool(connection -> readTimeouts.evalSha(connection, sha1, keys.length,
				keysAndArgs, () -> written.complete(null)));
		// Also when the call failed before it was written: nothing to wait for then.
		reply.whenComplete((answer, failure) -> written.complete(null));
		lastWritten.set(written);
		return reply;
	}

	@Override
	public CompletableFuture<List<Object>> eval(byte[] script, byte[][] keys, byte[][] args) {
		byte[][] keysAndArgs = RedisDriver.keysAndArgs(keys, args);
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
	 * Runs this request's next command after it: a decision a request asks for right
	 * after a release it sent without waiting already sees the lease gone, as on one
	 * connection. The next request on the same pooled thread does not wait for it.
	 */
	@Override
	public void sentWithoutWaiting(CompletableFuture<?> sent) {
		lastSent.set(sent);
	}

	/**
	 * On the calling thread when the client bounds reads, the last call answered, the
	 * limiter holds fewer connections than the client's pool has, and no command this
	 * thread sent without waiting is still running (the pool runs the next one after it).
	 */
	@Override
	public boolean claimCallingThread() {
		if (readTimeouts == null || !answering || lastSent.running() != null) {
			return false;
		}
		return connections.tryAcquire();
	}

	/**
	 * Borrows a connection from the client's pool, bounds each read by what is left until
	 * {@code deadlineNanos}, and gives the connection back with its configured timeout,
	 * or closed when a read did not end with a reply.
	 */
	@Override
	public <T> T onCallingThread(long deadlineNanos, Function<ScriptCommands, T> calls) {
		try {
			awaitWritten(deadlineNanos);
			RedisConnection connection;
			try {
				connection = connectionFactory.getConnection();
			}
			catch (RuntimeException noConnection) {
				answering = false;
				throw noConnection;
			}
			try (connection) {
				return onConnection(connection, deadlineNanos, calls);
			}
		}
		finally {
			connections.release();
		}
	}

	private <T> T onConnection(RedisConnection connection, long deadlineNanos, Function<ScriptCommands, T> calls) {
		int configured = -1;
		try {
			configured = readTimeouts.set(connection, ReadBoundCommands.millisUntil(deadlineNanos));
			T result = calls.apply(new ReadBoundCommands(connection, readTimeouts, deadlineNanos));
			answering = true;
			return result;
		}
		catch (RequestTimeout.Expired nothingSent) {
			// Ran out between two commands: nothing is left unread on the connection.
			throw nothingSent;
		}
		catch (RuntimeException failure) {
			if (readTimeouts.discardUnlessAnswered(connection, failure)) {
				answering = false;
			}
			throw failure;
		}
		finally {
			if (configured >= 0) {
				readTimeouts.restore(connection, configured);
			}
		}
	}

	/**
	 * Waits, within the call's deadline, until this thread's last script sent through the
	 * pool has been written.
	 */
	private void awaitWritten(long deadlineNanos) {
		CompletableFuture<?> written = lastWritten.take();
		if (written == null) {
			return;
		}
		try {
			written.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RequestTimeout.Expired();
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new RequestTimeout.Expired();
		}
	}

	/**
	 * Runs the command on the pool, after this thread's last command sent without waiting
	 * if that is still running.
	 */
	private <T> CompletableFuture<T> onPool(Function<RedisConnection, T> command) {
		CompletableFuture<?> before = lastSent.take();
		try {
			return CompletableFuture.supplyAsync(() -> {
				if (before != null) {
					before.exceptionally(failure -> null).join();
				}
				if (connections != null) {
					connections.acquireUninterruptibly();
				}
				try (RedisConnection connection = connectionFactory.getConnection()) {
					T result = command.apply(connection);
					answering = true;
					return result;
				}
				finally {
					if (connections != null) {
						connections.release();
					}
				}
			}, pool);
		}
		catch (RejectedExecutionException rejected) {
			return CompletableFuture.failedFuture(new RateLimitStoreException(
					"Redis store is saturated: " + poolSize + " calls already waiting", rejected));
		}
	}

}
