package dev.limiter.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile requests over a raw socket against the sample app with every guard on:
 * malformed Authorization headers, odd paths, oversized bodies, forged client addresses
 * and a flood of distinct addresses. None may produce a 5xx, echo its input into a
 * response header, put a raw token into the log, or grow the store past max-keys.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "server.max-http-request-header-size=256KB", "server.forward-headers-strategy=framework",
				"limiter.max-request-body=1KB", "limiter.memory.max-keys=512", "sample.expensive-delay=0ms",
				"logging.level.dev.limiter=DEBUG", })
@ExtendWith(OutputCaptureExtension.class)
class HostileInputTests {

	private static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	private static final String HUGE_TOKEN = "sp_HUGE" + "Q".repeat(64 * 1024);

	@LocalServerPort
	private int port;

	@Autowired
	private RateLimitStore store;

	static Stream<Arguments> hostileRequests() {
		List<Arguments> cases = new ArrayList<>();
		cases.add(hostile("empty Authorization", get("/s/agents.md", "Authorization: "), "sp_none"));
		cases.add(hostile("Bearer without token", get("/s/agents.md", "Authorization: Bearer"), "sp_none"));
		cases.add(hostile("Bearer and spaces", get("/s/agents.md", "Authorization: Bearer     "), "sp_none"));
		cases.add(hostile("lower-case scheme, wrong token",
				get("/s/agents.md", "Authorization: bearer sp_LOWERCASE000000000000000000000001"), "sp_LOWERCASE"));
		cases.add(hostile("Basic credentials", get("/s/agents.md", "Authorization: Basic c2VjcmV0OnNlY3JldA=="),
				"c2VjcmV0OnNlY3JldA"));
		cases.add(hostile("non-ASCII token as UTF-8", get("/s/agents.md", "Authorization: Bearer sp_ÜNÏCØDË€😀"),
				"sp_ÜNÏCØDË", "sp_\u00c3"));
		cases.add(hostile("JSON-breaking token",
				get("/s/agents.md", "Authorization: Bearer sp_QUOTE\"}{\\\"error\\\":\"x"), "sp_QUOTE"));
		cases.add(hostile("64 KiB token", get("/s/agents.md", "Authorization: Bearer " + HUGE_TOKEN), "sp_HUGEQQQQ"));
		String[] many = new String[90];
		for (int i = 0; i < many.length; i++) {
			many[i] = "Authorization: Bearer sp_MANY" + i;
		}
		cases.add(hostile("90 Authorization headers", get("/s/agents.md", many), "sp_MANY"));
		cases.add(hostile("valid token then a second header",
				get("/s/agents.md", "Authorization: Bearer " + DEMO_TOKEN, "Authorization: Bearer sp_SECOND"),
				"sp_SECOND", DEMO_TOKEN));
		cases.add(hostile("obs-fold header injection",
				get("/s/agents.md", "Authorization: Bearer sp_FOLD", " X-Injected: folded"), "sp_FOLD", "X-Injected"));
		cases.add(hostile("encoded CRLF in a token",
				get("/s/agents.md", "Authorization: Bearer sp_CRLF%0d%0aX-Injected:%20yes"), "sp_CRLF", "X-Injected"));
		cases.add(hostile("encoded slashes", get("/s/..%2f..%2fetc%2fpasswd", "Authorization: Bearer " + DEMO_TOKEN),
				"etc%2fpasswd", "etc/passwd"));
		cases.add(hostile("dot segments", get("/s/../../actuator/env", "Authorization: Bearer sp_DOTS"), "sp_DOTS",
				"actuator/env"));
		cases.add(hostile("encoded dot segments", get("/public/%2e%2e/s/agents.md"), "%2e%2e"));
		cases.add(hostile("semicolon path parameters",
				get("/s;x=INJECTED/agents.md", "Authorization: Bearer " + DEMO_TOKEN), "INJECTED"));
		cases.add(hostile("double slashes", get("//s//agents.md", "Authorization: Bearer " + DEMO_TOKEN)));
		cases.add(hostile("invalid percent encoding", get("/public/%zzBADPCT"), "BADPCT"));
		cases.add(hostile("very long path", get("/public/" + "LONGPATH".repeat(4096)), "LONGPATHLONGPATH"));
		cases.add(hostile("very long path with a bad token",
				get("/s/" + "LONGPATH".repeat(4096), "Authorization: Bearer sp_LONG"), "sp_LONG", "LONGPATHLONGPATH"));
		cases.add(hostile("forged address with markup", get("/public/ping", "X-Forwarded-For: <script>FORGED</script>"),
				"FORGED"));
		cases.add(hostile("forged address with a bad token",
				get("/s/agents.md", "X-Forwarded-For: 999.999.999.999, FORGEDADDR", "Authorization: Bearer sp_FORGED"),
				"FORGEDADDR", "sp_FORGED"));
		cases.add(hostile("huge forged address", get("/public/ping", "X-Forwarded-For: " + "F".repeat(20_000)),
				"FFFFFFFFFFFFFFFF"));
		cases.add(hostile("declared body over the bound",
				post("/s/remember", "Authorization: Bearer " + DEMO_TOKEN, "x".repeat(4096), false)));
		cases.add(hostile("chunked body over the bound",
				post("/s/remember", "Authorization: Bearer " + DEMO_TOKEN, "y".repeat(4096), true)));
		cases.add(hostile("chunked body over the bound, bad token",
				post("/s/remember", "Authorization: Bearer sp_CHUNKY", "z".repeat(4096), true), "sp_CHUNKY"));
		cases.add(hostile("negative Content-Length", raw("POST /s/remember HTTP/1.1\r\nHost: localhost\r\n"
				+ "Content-Length: -5\r\nConnection: close\r\n\r\n")));
		cases.add(hostile("non-numeric Content-Length", raw("POST /s/remember HTTP/1.1\r\nHost: localhost\r\n"
				+ "Content-Length: LOTS\r\nConnection: close\r\n\r\n"), "LOTS"));
		return cases.stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("hostileRequests")
	void requestWhenHostileShouldGetNoServerErrorAndEchoNothing(String name, byte[] request, List<String> secrets,
			CapturedOutput output) throws IOException {
		Response response = send(request);

		assertThat(response.status).as("status of '%s'", name).isBetween(200, 499);
		for (String secret : secrets) {
			for (Map.Entry<String, String> header : response.headers.entrySet()) {
				assertThat(header.getKey() + ": " + header.getValue()).as("response header").doesNotContain(secret);
			}
			assertThat(output.getAll()).as("log output").doesNotContain(secret);
		}
		assertThat(response.headers).doesNotContainKey("x-injected");
		for (String line : output.getAll().split("\\R")) {
			assertThat(line).as("log line").doesNotStartWith("X-Injected");
			if (line.contains("dev.limiter")) {
				assertThat(line).doesNotContain("<script>").doesNotContain("FORGED").doesNotContain("LONGPATH");
			}
		}
	}

	@Test
	void responseWhenWrittenByTheLimiterShouldBeNoStore() throws IOException {
		Response tooLarge = send(post("/s/remember", "Authorization: Bearer " + DEMO_TOKEN, "x".repeat(4096), true));

		assertThat(tooLarge.status).isEqualTo(413);
		assertThat(tooLarge.headers).containsEntry("cache-control", "no-store")
			.containsEntry("cdn-cache-control", "no-store");
	}

	@Test
	void storeWhenFloodedByDistinctAddressesShouldStayWithinMaxKeys() throws IOException {
		InMemoryRateLimitStore memory = (InMemoryRateLimitStore) ((OverLimitRememberingStore) store).delegate();
		for (int i = 0; i < 2_000; i++) {
			String address = "10." + (i >> 16 & 0xff) + "." + (i >> 8 & 0xff) + "." + (i & 0xff);
			String[] headers = i % 2 == 0 ? new String[] { "X-Forwarded-For: " + address }
					: new String[] { "X-Forwarded-For: " + address, "Authorization: Bearer sp_FLOOD" + i };
			Response response = send(get(i % 2 == 0 ? "/public/ping" : "/s/agents.md", headers));
			assertThat(response.status).isBetween(200, 499);
			assertThat(memory.size()).isLessThanOrEqualTo(512);
		}
		assertThat(memory.size()).isGreaterThan(256);
	}

	private static Arguments hostile(String name, byte[] request, String... secrets) {
		return Arguments.of(name, request, List.of(secrets));
	}

	private static byte[] get(String path, String... headers) {
		StringBuilder request = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: localhost\r\n");
		for (String header : headers) {
			request.append(header).append("\r\n");
		}
		return request.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] post(String path, String header, String body, boolean chunked) {
		StringBuilder request = new StringBuilder("POST ").append(path)
			.append(" HTTP/1.1\r\nHost: localhost\r\n")
			.append(header)
			.append("\r\nContent-Type: application/json\r\nConnection: close\r\n");
		if (chunked) {
			request.append("Transfer-Encoding: chunked\r\n\r\n");
			for (int i = 0; i < body.length(); i += 512) {
				String chunk = body.substring(i, Math.min(body.length(), i + 512));
				request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
			}
			request.append("0\r\n\r\n");
		}
		else {
			request.append("Content-Length: ").append(body.length()).append("\r\n\r\n").append(body);
		}
		return request.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] raw(String request) {
		return request.getBytes(StandardCharsets.ISO_8859_1);
	}

	private Response send(byte[] request) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(20_000);
			OutputStream out = socket.getOutputStream();
			try {
				out.write(request);
				out.flush();
			}
			catch (IOException refusedEarly) {
				// The server may answer and close before reading all of an oversized
				// request.
			}
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream received = new ByteArrayOutputStream();
			byte[] buffer = new byte[8192];
			try {
				for (int n; (n = in.read(buffer)) > 0;) {
					received.write(buffer, 0, n);
				}
			}
			catch (IOException reset) {
				// A reset after the response was sent still leaves the response readable.
			}
			return Response.parse(received.toString(StandardCharsets.ISO_8859_1));
		}
	}

	private record Response(int status, Map<String, String> headers, String raw) {

		static Response parse(String raw) {
			assertThat(raw).as("a response").startsWith("HTTP/1.1 ");
			String[] lines = raw.substring(0, Math.max(0, raw.indexOf("\r\n\r\n"))).split("\r\n");
			int status = Integer.parseInt(lines[0].substring(9, 12));
			Map<String, String> headers = new LinkedHashMap<>();
			for (int i = 1; i < lines.length; i++) {
				int colon = lines[i].indexOf(':');
				headers.merge(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
						lines[i].substring(colon + 1).trim(), (a, b) -> a + ", " + b);
			}
			return new Response(status, headers, raw);
		}
	}

}
