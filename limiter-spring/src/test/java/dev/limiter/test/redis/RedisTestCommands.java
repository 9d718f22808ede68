package dev.limiter.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

/**
 * Test plumbing (cluster set-up, INFO, SCAN, faults) over a Lettuce connection of its
 * own, apart from the client under test, so it keeps working while that client is the
 * thing being examined. The connection speaks RESP2 and sends nothing on connect (no
 * HELLO, no CLIENT SETINFO), so a {@link RedisMonitor} sees only the commands sent here.
 * A reply is a String, a Long, a List or null; an error reply throws
 * {@link RedisCommandExecutionException}; a server that does not answer in time throws
 * {@link UncheckedIOException}.
 */
public final class RedisTestCommands implements AutoCloseable {

	private static final ClientResources RESOURCES = DefaultClientResources.create();

	private final int port;

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private RedisTestCommands(int port, RedisClient client, StatefulRedisConnection<String, String> connection) {
		this.port = port;
		this.client = client;
		this.connection = connection;
	}

	/**
	 * Opens a connection to {@code 127.0.0.1:port} that waits at most {@code timeout}.
	 */
	public static RedisTestCommands connect(int port, Duration timeout) {
		RedisURI uri = RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(port)
			.withTimeout(timeout)
			.withLibraryName("")
			.withLibraryVersion("")
			.build();
		RedisClient client = RedisClient.create(RESOURCES, uri);
		client.setOptions(ClientOptions.builder()
			.protocolVersion(ProtocolVersion.RESP2)
			.autoReconnect(false)
			.socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
			.build());
		try {
			return new RedisTestCommands(port, client, client.connect(StringCodec.UTF8));
		}
		catch (RedisException ex) {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			throw unanswered(port, ex);
		}
	}

	/** Runs one command against the server at {@code port} on a fresh connection. */
	public static Object call(int port, Object... command) {
		try (RedisTestCommands commands = connect(port, Duration.ofSeconds(5))) {
			return commands.command(command);
		}
	}

	/** Sends one command, such as {@code "CLUSTER", "INFO"}, and returns its reply. */
	public Object command(Object... command) {
		CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
		for (int i = 1; i < command.length; i++) {
			args.add(String.valueOf(command[i]));
		}
		try {
			return connection.sync().dispatch(new Keyword(String.valueOf(command[0])), new AnyReply(), args);
		}
		catch (RedisCommandExecutionException ex) {
			throw ex;
		}
		catch (RedisException ex) {
			throw unanswered(port, ex);
		}
	}

	private static UncheckedIOException unanswered(int port, RedisException ex) {
		return new UncheckedIOException(new IOException("redis at port " + port + " did not answer", ex));
	}

	@Override
	public void close() {
		connection.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	private record Keyword(String name) implements ProtocolKeyword {

		@Override
		public byte[] getBytes() {
			return name.getBytes(StandardCharsets.US_ASCII);
		}

		@Override
		public String toString() {
			return name;
		}

	}

	/** Any RESP2 reply, arrays nested as lists. */
	private static final class AnyReply extends CommandOutput<String, String, Object> {

		private final Deque<List<Object>> arrays = new ArrayDeque<>();

		private final Deque<Integer> missing = new ArrayDeque<>();

		AnyReply() {
			super(StringCodec.UTF8, null);
		}

		@Override
		public void set(ByteBuffer bytes) {
			add((bytes != null) ? StandardCharsets.UTF_8.decode(bytes).toString() : null);
		}

		@Override
		public void setSingle(ByteBuffer bytes) {
			set(bytes);
		}

		@Override
		public void set(long integer) {
			add(integer);
		}

		@Override
		public void multi(int count) {
			if (count < 0) {
				add(null);
				return;
			}
			List<Object> array = new ArrayList<>(count);
			add(array);
			if (count > 0) {
				arrays.push(array);
				missing.push(count);
			}
		}

		private void add(Object value) {
			if (arrays.isEmpty()) {
				output = value;
				return;
			}
			arrays.peek().add(value);
			int left = missing.pop() - 1;
			if (left > 0) {
				missing.push(left);
			}
			else {
				arrays.pop();
			}
		}

	}

}
