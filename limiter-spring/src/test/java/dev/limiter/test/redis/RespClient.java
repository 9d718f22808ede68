package dev.limiter.test.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A tiny blocking RESP2 client for test plumbing (cluster set-up, INFO, SCAN, faults). It
 * needs nothing but a socket, so it keeps working while the client under test is the
 * thing being examined.
 */
public final class RespClient implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	public RespClient(String host, int port, int timeoutMillis) {
		try {
			socket = new Socket();
			socket.connect(new InetSocketAddress(host, port), timeoutMillis);
			socket.setSoTimeout(timeoutMillis);
			in = new BufferedInputStream(socket.getInputStream());
			out = socket.getOutputStream();
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot connect to redis at " + host + ":" + port, e);
		}
	}

	/** Runs one command against the server at {@code port} on a fresh connection. */
	public static Object call(int port, Object... command) {
		try (RespClient client = new RespClient("127.0.0.1", port, 5_000)) {
			return client.command(command);
		}
	}

	/**
	 * Sends one command and reads its reply: a String for simple and bulk strings, a Long
	 * for integers, a List for arrays, null for nil. An error reply throws
	 * {@link RedisErrorReply}.
	 */
	public Object command(Object... args) {
		try {
			ByteArrayOutputStream buf = new ByteArrayOutputStream();
			buf.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
			for (Object arg : args) {
				byte[] bytes = String.valueOf(arg).getBytes(StandardCharsets.UTF_8);
				buf.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
				buf.write(bytes);
				buf.write("\r\n".getBytes(StandardCharsets.US_ASCII));
			}
			out.write(buf.toByteArray());
			out.flush();
			return read();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private Object read() throws IOException {
		int type = in.read();
		if (type < 0) {
			throw new IOException("connection closed");
		}
		String line = readLine();
		switch (type) {
			case '+':
				return line;
			case '-':
				throw new RedisErrorReply(line);
			case ':':
				return Long.parseLong(line);
			case '$': {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return null;
				}
				byte[] data = in.readNBytes(length);
				in.readNBytes(2);
				return new String(data, StandardCharsets.UTF_8);
			}
			case '*': {
				int count = Integer.parseInt(line);
				if (count < 0) {
					return null;
				}
				List<Object> items = new ArrayList<>(count);
				for (int i = 0; i < count; i++) {
					items.add(read());
				}
				return items;
			}
			default:
				throw new IOException("unexpected RESP type " + (char) type);
		}
	}

	private String readLine() throws IOException {
		StringBuilder sb = new StringBuilder();
		int c;
		while ((c = in.read()) != '\r') {
			if (c < 0) {
				throw new IOException("connection closed");
			}
			sb.append((char) c);
		}
		in.read();
		return sb.toString();
	}

	@Override
	public void close() {
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// closing a test connection cannot fail in a way that matters
		}
	}

	/** An error reply from Redis. */
	public static final class RedisErrorReply extends RuntimeException {

		public RedisErrorReply(String message) {
			super(message);
		}

	}

}
