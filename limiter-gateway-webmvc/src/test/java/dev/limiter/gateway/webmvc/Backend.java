package dev.limiter.gateway.webmvc;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The service behind the gateway: a local HTTP server that counts what it received per
 * first path segment and answers {@code ok}. A path ending in {@code /report/<value>}
 * answers with {@code X-Usage-Tokens: <value>} (the value as sent, malformed or not).
 */
final class Backend implements AutoCloseable {

	static final String REPORT_HEADER = "X-Usage-Tokens";

	private final HttpServer server;

	private final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

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
		int report = path.indexOf("/report/");
		if (report >= 0) {
			exchange.getResponseHeaders()
				.add(REPORT_HEADER, java.net.URLDecoder.decode(path.substring(report + 8), StandardCharsets.UTF_8));
		}
		byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "text/plain");
		exchange.sendResponseHeaders(200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void close() {
		server.stop(0);
	}

}
