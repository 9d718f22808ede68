package dev.limiter.gateway.webmvc;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The service behind the gateway: a local HTTP server that counts what it received per
 * first path segment and answers {@code ok}. A path ending in {@code /report/<value>}
 * answers with {@code X-Usage-Tokens: <value>} (the value as sent, malformed or not); one
 * under {@code /slow/} streams its body in two parts, the second when the test says.
 */
final class Backend implements AutoCloseable {

	static final String REPORT_HEADER = "X-Usage-Tokens";

	private final HttpServer server;

	private final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

	private volatile CountDownLatch slowStarted = new CountDownLatch(1);

	private volatile CountDownLatch slowReleased = new CountDownLatch(1);

	private Backend(HttpServer server) {
		this.server = server;
	}

	static Backend start() throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
		Backend backend = new Backend(server);
		server.createContext("/", backend::answer);
		server.setExecutor(Executors.newCachedThreadPool());
		server.start();
		return backend;
	}

	String uri() {
		return "http://127.0.0.1:" + server.getAddress().getPort();
	}

	/** How many requests under {@code /<segment>/} arrived. */
	int received(String segment) {
		AtomicInteger count = received.get(segment);
		return (count != null) ? count.get() : 0;
	}

	private void answer(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		String[] segments = path.split("/");
		received.computeIfAbsent((segments.length > 1) ? segments[1] : "", (key) -> new AtomicInteger())
			.incrementAndGet();
		if (path.startsWith("/slow/")) {
			answerSlowly(exchange);
			return;
		}
		int report = path.indexOf("/report/");
		if (report >= 0) {
			exchange.getResponseHeaders()
				.add(REPORT_HEADER, URLDecoder.decode(path.substring(report + 8), StandardCharsets.UTF_8));
		}
		byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "text/plain");
		exchange.sendResponseHeaders(200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	/**
	 * Under {@code /slow/}: the headers and a first part of the body at once, the rest
	 * once {@link #releaseSlow()} is called.
	 */
	private void answerSlowly(HttpExchange exchange) throws IOException {
		// the latch this response waits for, read before it says it started: a release
		// that follows the start releases this response, whatever comes after
		CountDownLatch released = slowReleased;
		CountDownLatch started = slowStarted;
		exchange.getResponseHeaders().add("Content-Type", "text/plain");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write("first,".getBytes(StandardCharsets.UTF_8));
			out.flush();
			started.countDown();
			released.await(30, TimeUnit.SECONDS);
			out.write("last".getBytes(StandardCharsets.UTF_8));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Waits until a slow response has started streaming. */
	void awaitSlowStarted() throws InterruptedException {
		if (!slowStarted.await(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("no slow response started");
		}
	}

	/** Lets the slow responses finish; the next ones are slow again. */
	void releaseSlow() {
		CountDownLatch released = slowReleased;
		slowStarted = new CountDownLatch(1);
		slowReleased = new CountDownLatch(1);
		released.countDown();
	}

	@Override
	public void close() {
		server.stop(0);
	}

}
