package dev.limiter.web.body;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import dev.limiter.guard.GuardTestApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Expect: 100-continue} over a raw socket: a declared body over
 * {@code limiter.max-request-body} is answered 413 without an interim {@code 100
 * Continue}, so the client does not upload it for nothing; one within the bound still
 * gets its {@code 100} and is served.
 */
@SpringBootTest(classes = GuardTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.max-request-body=1KB")
class ExpectContinueHttpTests {

	@LocalServerPort
	private int port;

	@Test
	void expectContinueWhenTheDeclaredBodyIsOverTheBoundShouldAnswer413WithoutContinue() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			send(socket, "POST /public/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
					+ "Content-Length: 1048576\r\nExpect: 100-continue\r\n\r\n");
			String answer = readHead(socket.getInputStream());

			assertThat(answer).startsWith("HTTP/1.1 413 ");
			assertThat(answer).doesNotContain("100 Continue");
		}
	}

	@Test
	void expectContinueWhenTheDeclaredBodyIsWithinTheBoundShouldContinueAndServe() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			send(socket, "POST /public/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
					+ "Content-Length: 4\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n");
			String interim = readHead(socket.getInputStream());
			assertThat(interim).startsWith("HTTP/1.1 100 ");
			send(socket, "abcd");
			String answer = readHead(socket.getInputStream());

			assertThat(answer).startsWith("HTTP/1.1 200 ");
		}
	}

	private static void send(Socket socket, String text) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(text.getBytes(StandardCharsets.ISO_8859_1));
		out.flush();
	}

	/** Reads up to the end of one response head (the empty line). */
	private static String readHead(InputStream in) throws IOException {
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
