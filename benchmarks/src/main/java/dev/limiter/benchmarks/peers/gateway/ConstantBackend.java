package dev.limiter.benchmarks.peers.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;
import dev.limiter.benchmarks.peers.PeerRoute;

/**
 * The gateway's backend: answers every request with 200 and the sample app's
 * {@code /s/agents.md} body ({@link PeerRoute#AGENTS_MD}), on the JDK's own HTTP server,
 * in a process apart from the gateway so that the gateway's CPU is the gateway's alone.
 * {@code java -cp benchmarks.jar dev.limiter.benchmarks.peers.gateway.ConstantBackend <port>}.
 */
public final class ConstantBackend {

	private ConstantBackend() {
	}

	public static void main(String[] args) throws IOException {
		int port = Integer.parseInt(args[0]);
		// the JDK server writes headers and body apart: without TCP_NODELAY, Nagle's
		// algorithm against the client's delayed ACK holds every response about 40 ms
		System.setProperty("sun.net.httpserver.nodelay", "true");
		byte[] body = PeerRoute.AGENTS_MD.getBytes(StandardCharsets.UTF_8);
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
		server.createContext("/", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			exchange.getResponseHeaders().set("Content-Type", "text/markdown;charset=UTF-8");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.setExecutor(Executors.newFixedThreadPool(4));
		server.start();
	}

}
