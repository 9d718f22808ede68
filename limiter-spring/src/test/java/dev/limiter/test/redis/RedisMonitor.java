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
 * ({@code [0 lua]}) are not counted: what matters is what crossed the network. Every
 * reading draws its line with a marker command ({@code ECHO} of a unique argument on a
 * connection of its own) and reads MONITOR until the marker shows, so it neither misses a
 * command sent before the marker nor waits a fixed time.
 */
public final class RedisMonitor implements AutoCloseable {

	/** The longest a reading waits for the commands or the marker it expects. */
	private static final Duration WAIT = Duration.ofSeconds(10);

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
	 * The commands sent since the last reading, up to a marker sent now on another
	 * connection; lower-cased names only. Nothing is waited for but the marker: what a
	 * request sent before its response is here once the response has arrived, so a check
	 * that a request sent nothing reads this right after the response.
	 */
	public List<String> commandsUntilQuiet() {
		return names(linesUntilQuiet());
	}

	/**
	 * The commands sent since the last reading, once at least {@code count} of them have
	 * arrived (or 10 s have passed), up to a marker sent then; lower-cased names only.
	 * For commands sent after the response (a release, a settlement): it waits for them,
	 * and whatever else was sent before the marker shows too.
	 */
	public List<String> commandsOnceSent(int count) {
		return names(linesOnceSent(count));
	}

	/**
	 * {@link #commandsOnceSent}, each as MONITOR showed it: the command with its
	 * arguments.
	 */
	public List<String> linesOnceSent(int count) {
		long deadline = System.nanoTime() + WAIT.toNanos();
		synchronized (seen) {
			while (seen.stream().filter(RedisMonitor::sentByAClient).count() < count && !closed
					&& System.nanoTime() < deadline) {
				await();
			}
		}
		return linesUntilQuiet();
	}

	/**
	 * {@link #commandsUntilQuiet}, each as MONITOR showed it: the command with its
	 * arguments.
	 */
	public List<String> linesUntilQuiet() {
		String marker = "monitor-mark-" + UUID.randomUUID();
		markers.command("ECHO", marker);
		long deadline = System.nanoTime() + WAIT.toNanos();
		synchronized (seen) {
			while (seen.stream().noneMatch(line -> line.contains(marker))) {
				if (System.nanoTime() > deadline || closed) {
					throw new IllegalStateException("MONITOR never showed the marker");
				}
				await();
			}
			List<String> commands = new ArrayList<>();
			for (String line : seen) {
				if (line.contains(marker)) {
					break;
				}
				if (sentByAClient(line)) {
					commands.add(line);
				}
			}
			seen.clear();
			return commands;
		}
	}

	/** Not a command a script ran inside Redis. */
	private static boolean sentByAClient(String line) {
		return !line.contains(" lua]");
	}

	/** Waits for the reader's next line; the caller holds {@code seen}'s lock. */
	private void await() {
		try {
			seen.wait(50);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static List<String> names(List<String> lines) {
		return lines.stream().map(RedisMonitor::commandName).toList();
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
