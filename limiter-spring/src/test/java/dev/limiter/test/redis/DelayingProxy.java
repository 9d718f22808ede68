package dev.limiter.test.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy in front of a {@code redis-server} that holds every reply for a settable
 * delay from when it arrived before passing it on: a slow Redis (a far region, an
 * overloaded server) whose each round trip is slow but answers. Replies to commands sent
 * together wait together, as over a long link.
 */
public final class DelayingProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int targetPort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile long delayMillis;

	private volatile boolean closed;

	public DelayingProxy(int targetPort) {
		this.targetPort = targetPort;
		try {
			server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot open a proxy port", ex);
		}
		Thread acceptor = new Thread(this::accept, "delaying-proxy-" + server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	public int port() {
		return server.getLocalPort();
	}

	/** Every reply from now on waits this long before it is passed on. */
	public void delay(Duration delay) {
		this.delayMillis = delay.toMillis();
	}

	private void accept() {
		while (!closed) {
			try {
				Socket client = server.accept();
				Socket redis = new Socket();
				redis.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
				client.setTcpNoDelay(true);
				redis.setTcpNoDelay(true);
				sockets.add(client);
				sockets.add(redis);
				pump(client, redis, false);
				pump(redis, client, true);
			}
			catch (IOException ex) {
				if (!closed) {
					RedisServerProcess.sleep(10);
				}
			}
		}
	}

	private void pump(Socket from, Socket to, boolean delayed) {
		if (!delayed) {
			start(() -> copy(from, to));
			return;
		}
		// Latency, not bandwidth: each reply is held for the delay from when it arrived,
		// so replies to pipelined commands overlap their waits as they would over a
		// long link.
		BlockingQueue<Chunk> held = new LinkedBlockingQueue<>();
		start(() -> {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					held.add(new Chunk(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis),
							Arrays.copyOf(buffer, read)));
				}
			}
			catch (IOException ex) {
				// one side closed: the other follows below
			}
			finally {
				held.add(Chunk.END);
				closeQuietly(from);
			}
		});
		start(() -> {
			try (OutputStream out = to.getOutputStream()) {
				while (true) {
					Chunk chunk = held.take();
					if (chunk == Chunk.END) {
						return;
					}
					long wait = chunk.releaseAtNanos() - System.nanoTime();
					if (wait > 0) {
						TimeUnit.NANOSECONDS.sleep(wait);
					}
					out.write(chunk.bytes());
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// closed: nothing more to pass on
			}
			finally {
				closeQuietly(to);
			}
		});
	}

	private static void copy(Socket from, Socket to) {
		byte[] buffer = new byte[16 * 1024];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		catch (IOException ex) {
			// one side closed: the other follows below
		}
		finally {
			closeQuietly(from);
			closeQuietly(to);
		}
	}

	private static void start(Runnable pump) {
		Thread thread = new Thread(pump, "delaying-proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	private record Chunk(long releaseAtNanos, byte[] bytes) {

		static final Chunk END = new Chunk(0, new byte[0]);

	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// already closed
		}
	}

	@Override
	public void close() {
		closed = true;
		try {
			server.close();
		}
		catch (IOException ignored) {
			// already closed
		}
		sockets.forEach(DelayingProxy::closeQuietly);
	}

}
