package dev.limiter.test.redis;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Counts the commands clients send to a real {@code redis-server}, read from
 * {@code MONITOR} on a connection of its own. Commands a script runs inside Redis
 * ({@code [0 lua]}) are not counted: what matters is what crossed the network.
 * {@link #commandsUntilQuiet()} draws a line with a marker command, so each reading is
 * exact.
 */
public final class RedisMonitor implements AutoCloseable {

	private final int port;

	private final Socket socket;

	private final InputStream in;

	private final List<String> seen = new ArrayList<>();

	private final Thread reader;

	private final RedisTestCommands markers;

	private volatile boolean closed;

	public RedisMonitor(int port) {
		this.port = port;
		// Opened before MONITOR starts, so the only command it shows there is its marker.
		this.markers = RedisTestCommands.connect(port, Duration.ofSeconds(5));
		try {
			socket = new Socket();
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
			in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			out.write("*1\r\n$7\r\nMONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			String ok = readLine();
			if (!ok.equals("+OK")) {
				throw new IOException("MONITOR answered " + ok);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot monitor redis at port " + port, ex);
		}
		reader = new Thread(this::readAll, "redis-monitor-" + port);
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * The commands sent since the last reading, once everything sent before
	 * {@code settleMillis} from now has arrived (a release is sent asynchronously after
	 * the response), lower-cased names only.
	 */
	public List<String> commandsAfter(long settleMillis) {
		return linesAfter(settleMillis).stream().map(RedisMonitor::commandName).toList();
	}

	/**
	 * {@link #commandsAfter}, each as MONITOR showed it: the command with its arguments.
	 */
	public List<String> linesAfter(long settleMillis) {
		try {
			Thread.sleep(settleMillis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return linesUntilQuiet();
	}

	/**
	 * The commands sent since the last reading, up to a marker sent now; lower-cased
	 * names only.
	 */
	public List<String> commandsUntilQuiet() {
		return linesUntilQuiet().stream().map(RedisMonitor::commandName).toList();
	}

	private List<String> linesUntilQuiet() {
		String marker = "monitor-mark-" + UUID.randomUUID();
		markers.command("ECHO", marker);
		long deadline = System.nanoTime() + 10_000_000_000L;
		synchronized (seen) {
			while (seen.stream().noneMatch(line -> line.contains(marker))) {
				if (System.nanoTime() > deadline || closed) {
					throw new IllegalStateException("MONITOR never showed the marker");
				}
				try {
					seen.wait(50);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
			}
			List<String> commands = new ArrayList<>();
			for (String line : seen) {
				if (line.contains(marker)) {
					break;
				}
				if (line.contains(" lua]")) {
					continue;
				}
				commands.add(line);
			}
			seen.clear();
			return commands;
		}
	}

	/** Forgets everything seen so far. */
	public void reset() {
		commandsUntilQuiet();
	}

	private static String commandName(String line) {
		int bracket = line.indexOf("] \"");
		int end = line.indexOf('"', bracket + 3);
		return bracket < 0 || end < 0 ? line : line.substring(bracket + 3, end).toLowerCase(java.util.Locale.ROOT);
	}

	private void readAll() {
		try {
			while (!closed) {
				String line = readLine();
				synchronized (seen) {
					seen.add(line);
					seen.notifyAll();
				}
			}
		}
		catch (IOException ex) {
			closed = true;
		}
	}

	private String readLine() throws IOException {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != '\n') {
			if (c < 0) {
				throw new IOException("connection closed");
			}
			if (c != '\r') {
				line.append((char) c);
			}
		}
		return line.toString();
	}

	@Override
	public void close() {
		closed = true;
		markers.close();
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// a test connection that fails to close changes nothing
		}
	}

}
