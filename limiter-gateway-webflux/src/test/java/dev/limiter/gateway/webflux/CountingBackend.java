package dev.limiter.gateway.webflux;

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
 * The service behind the gateway: a local HTTP server on its own threads that counts what
 * it received per first path segment and answers 200. A request's
 * {@code X-Backend-Report} header comes back as the usage report header
 * ({@code X-Usage-Tokens}), one response header line per {@code |}-separated value; its
 * {@code X-Backend-Delay} header (milliseconds) delays the answer.
 */
final class CountingBackend implements AutoCloseable {

	static final String REPORT_HEADER = "X-Usage-Tokens";

	private final HttpServer server;

	private final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

	private CountingBackend(HttpServer server) {
		this.server = server;
	}

	static CountingBackend start() throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
		CountingBackend backend = new CountingBackend(server);
		server.createContext("/", backend::answer);
		server.setExecutor(Executors.newFixedThreadPool(16));
		server.start();
		return backend;
	}

	String uri() {
		return "http://127.0.0.1:" + server.getAddress().getPort();
	}

	/** How many requests whose path starts with {@code /segment} arrived. */
	int received(String segment) {
		AtomicInteger count = received.get(segment);
		return (count != null) ? count.get() : 0;
	}

	private void answer(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		String segment = path.split("/").length > 1 ? path.split("/")[1] : "";
		received.computeIfAbsent(segment, (s) -> new AtomicInteger()).incrementAndGet();
		String delay = exchange.getRequestHeaders().getFirst("X-Backend-Delay");
		if (delay != null) {
			try {
				Thread.sleep(Long.parseLong(delay));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		String report = exchange.getRequestHeaders().getFirst("X-Backend-Report");
		if (report != null) {
			for (String value : report.split("\\|", -1)) {
				exchange.getResponseHeaders().add(REPORT_HEADER, value);
			}
		}
		byte[] body = ("backend " + path).getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "text/plain");
		exchange.sendResponseHeaders(200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void close() {
		server.stop(0);
		((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
	}

}
