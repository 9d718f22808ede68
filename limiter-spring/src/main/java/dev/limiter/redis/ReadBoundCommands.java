package dev.limiter.redis;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

/**
 * Scripts on one connection of the calling thread, each reply's read bounded by what is
 * left until the call's deadline (the socket's read timeout, set before each command).
 */
final class ReadBoundCommands implements RedisDriver.ScriptCommands {

	private final RedisConnection connection;

	private final ReadTimeouts readTimeouts;

	private final long deadlineNanos;

	ReadBoundCommands(RedisConnection connection, ReadTimeouts readTimeouts, long deadlineNanos) {
		this.connection = connection;
		this.readTimeouts = readTimeouts;
		this.deadlineNanos = deadlineNanos;
	}

	@Override
	public List<Object> evalSha(String sha1, byte[][] keys, byte[][] args) {
		readTimeouts.set(connection, millisUntil(deadlineNanos));
		return connection.scriptingCommands()
			.evalSha(sha1, ReturnType.MULTI, keys.length, RedisDriver.keysAndArgs(keys, args));
	}

	@Override
	public List<Object> eval(byte[] script, byte[][] keys, byte[][] args) {
		readTimeouts.set(connection, millisUntil(deadlineNanos));
		return connection.scriptingCommands()
			.eval(script, ReturnType.MULTI, keys.length, RedisDriver.keysAndArgs(keys, args));
	}

	/**
	 * A socket read timeout for what is left until the deadline, at least 1 ms (0 would
	 * wait for ever); a command with nothing left fails before it is sent.
	 */
	static int millisUntil(long deadlineNanos) {
		long left = deadlineNanos - System.nanoTime();
		if (left <= 0) {
			throw new RequestTimeout.Expired();
		}
		return (int) Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left + 999_999)));
	}

}
