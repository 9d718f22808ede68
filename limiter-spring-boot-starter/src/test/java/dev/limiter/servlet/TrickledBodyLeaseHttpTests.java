package dev.limiter.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Trickled bodies over raw sockets with the default configuration (no
 * {@code limiter.max-request-body}): an expensive request whose handler ignores its body
 * holds its lease until the body has arrived or the connection closed, so with
 * {@code max: 2} a third upload is refused while two trickle, whether their length is
 * declared or chunked.
 */
class TrickledBodyLeaseHttpTests {

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final List<Socket> sockets = new ArrayList<>();

	private ConfigurableApplicationContext app;

	private int port;

	@BeforeEach
	void start() {
		app = new SpringApplicationBuilder(LeaseTestApplication.class)
			.properties("server.port=0", "limiter.store=memory", "limiter.routes[0].pattern=/{name:long|ignore}",
					"limiter.routes[0].expensive=true", "limiter.budgets.anonymous.windows.minute.limit=1000",
					"limiter.budgets.anonymous.concurrency.max=2", "limiter.budgets.anonymous.concurrency.lease=30s")
			.run();
		port = ((ServletWebServerApplicationContext) app).getWebServer().getPort();
	}

	@AfterEach
	void stop() throws IOException {
		for (Socket socket : sockets) {
			socket.close();
		}
		app.close();
	}

	@Test
	void uploadsWhenTrickledToAHandlerThatIgnoresThemShouldHoldTheirSlotsUntilTheBodiesEnd() throws Exception {
		int ignoredBefore = LeaseTestApplication.ignored.get();
		Socket declared = upload("Content-Length: 3\r\n\r\na");
		await().atMost(Duration.ofSeconds(5)).until(() -> LeaseTestApplication.ignored.get() - ignoredBefore == 1);
		Socket chunked = upload("Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n");
		await().atMost(Duration.ofSeconds(5)).until(() -> LeaseTestApplication.ignored.get() - ignoredBefore == 2);
		Socket third = upload("Content-Length: 3\r\n\r\na");

		assertThat(readHead(third, 5_000)).as("a third upload while two trickle").startsWith("HTTP/1.1 429 ");
		assertThat(send("/long?ms=0").statusCode()).as("both slots held by the trickling bodies").isEqualTo(429);
		assertThat(LeaseTestApplication.ignored.get() - ignoredBefore).as("handlers run").isEqualTo(2);

		write(declared, "bc");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(
					() -> assertThat(send("/long?ms=0").statusCode()).as("one slot back with its body").isEqualTo(200));
		assertThat(send("/long?ms=0").statusCode()).isEqualTo(200);
		chunked.close();
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(
					() -> assertThat(send("/long?ms=0").statusCode()).as("the other back as its connection closed")
						.isEqualTo(200));
	}

	private Socket upload(String rest) throws IOException {
		Socket socket = new Socket("127.0.0.1", port);
		sockets.add(socket);
		write(socket, "POST /ignore HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n" + rest);
		return socket;
	}

	private HttpResponse<String> send(String path) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static void write(Socket socket, String text) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(text.getBytes(StandardCharsets.ISO_8859_1));
		out.flush();
	}

	/** Reads up to the end of one response head, or what came before the timeout. */
	private static String readHead(Socket socket, int timeoutMillis) throws IOException {
		socket.setSoTimeout(timeoutMillis);
		InputStream in = socket.getInputStream();
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		try {
			int b;
			while ((b = in.read()) >= 0) {
				head.write(b);
				if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
					break;
				}
			}
		}
		catch (SocketTimeoutException ex) {
			// what arrived is the answer
		}
		return head.toString(StandardCharsets.ISO_8859_1);
	}

}
