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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import dev.limiter.core.LeaseRenewer;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leases that hold as long as their request runs, over a real port and the real clock
 * ({@code lease: 3s}, {@code max: 2}, a handler of 6 s): the bound still holds at 4 s, in
 * memory and on Redis; a lease whose instance stopped renewing it (the instance died) is
 * gone 3 s later; a body still being drained after its handler returned is part of its
 * request: it holds the lease, renewed, and is counted.
 */
@UsesRedisServer
class LeaseRenewalHttpTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void stop() {
		LeaseTestApplication.release.get().countDown();
		contexts.forEach(ConfigurableApplicationContext::close);
		LeaseTestApplication.release.set(new CountDownLatch(1));
	}

	@Test
	void handlerWhenSlowerThanItsLeaseShouldKeepItsSlotInMemory() throws Exception {
		boundHoldsPastTheLease(start("limiter.store=memory"));
	}

	@Test
	void handlerWhenSlowerThanItsLeaseShouldKeepItsSlotOnRedis() throws Exception {
		boundHoldsPastTheLease(start("limiter.store=redis", "limiter.redis.key-prefix=renewal-" + System.nanoTime()));
	}

	private void boundHoldsPastTheLease(ConfigurableApplicationContext app) throws Exception {
		LeaseRenewer renewer = app.getBean(LeaseRenewer.class);
		long renewalsBefore = renewer.renewals();
		int startedBefore = LeaseTestApplication.started.get();
		long t0 = System.currentTimeMillis();
		List<CompletableFuture<HttpResponse<String>>> inFlight = List.of(sendAsync(app, "/long?ms=6000"),
				sendAsync(app, "/long?ms=6000"));
		await().atMost(Duration.ofSeconds(5)).until(() -> LeaseTestApplication.started.get() - startedBefore == 2);

		sleepUntil(t0 + 1_000);
		HttpResponse<String> atOne = send(app, "/long?ms=0");
		sleepUntil(t0 + 4_000);
		HttpResponse<String> atFour = send(app, "/long?ms=0");

		assertThat(atOne.statusCode()).as("third request at 1 s").isEqualTo(429);
		assertThat(atOne.body()).contains("\"bound\":\"concurrency\"");
		assertThat(atFour.statusCode()).as("third request at 4 s, past the 3 s lease").isEqualTo(429);
		assertThat(atFour.body()).contains("\"bound\":\"concurrency\"");
		for (CompletableFuture<HttpResponse<String>> running : inFlight) {
			assertThat(running.get().statusCode()).isEqualTo(200);
		}
		// a third of the 3 s lease: about five renewals of each 6 s request, one store
		// call (one Redis round trip) each
		assertThat(renewer.renewals() - renewalsBefore).isBetween(8L, 12L);
		assertThat(send(app, "/long?ms=0").statusCode()).as("both slots back once they ended").isEqualTo(200);
	}

	@Test
	void leaseWhenItsInstanceStopsRenewingShouldBeGoneThreeSecondsLater() throws Exception {
		String prefix = "killed-" + System.nanoTime();
		ConfigurableApplicationContext dying = start("limiter.store=redis", "limiter.redis.key-prefix=" + prefix);
		ConfigurableApplicationContext survivor = start("limiter.store=redis", "limiter.redis.key-prefix=" + prefix);
		int startedBefore = LeaseTestApplication.started.get();
		sendAsync(dying, "/long?ms=30000");
		sendAsync(dying, "/long?ms=30000");
		await().atMost(Duration.ofSeconds(5)).until(() -> LeaseTestApplication.started.get() - startedBefore == 2);
		Thread.sleep(4_000);
		assertThat(send(survivor, "/long?ms=0").statusCode()).as("renewed past the lease").isEqualTo(429);

		// The instance dies as far as its leases can tell: its renewals stop, and its
		// requests never end (their handlers run on, and nothing releases).
		dying.getBean(LeaseRenewer.class).close();
		long killedAt = System.currentTimeMillis();

		sleepUntil(killedAt + 1_500);
		assertThat(send(survivor, "/long?ms=0").statusCode()).as("1.5 s after the death").isEqualTo(429);
		sleepUntil(killedAt + 3_100);
		assertThat(send(survivor, "/long?ms=0").statusCode()).as("3 s after the death").isEqualTo(200);
	}

	@Test
	void bodyWhenStillDrainedAfterItsHandlerReturnedShouldHoldItsLeaseAndBeCounted() throws Exception {
		ConfigurableApplicationContext app = start("limiter.store=memory", "limiter.max-request-body=1KB",
				"limiter.routes[1].pattern=/ignore", "limiter.routes[1].expensive=true");
		int port = port(app);
		int ignoredBefore = LeaseTestApplication.ignored.get();
		List<Socket> trickling = new ArrayList<>();
		try {
			long t0 = System.currentTimeMillis();
			for (int i = 0; i < 2; i++) {
				Socket socket = new Socket("127.0.0.1", port);
				socket.setSoTimeout(500);
				write(socket, "POST /ignore HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
						+ "Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n");
				trickling.add(socket);
			}
			await().atMost(Duration.ofSeconds(5)).until(() -> LeaseTestApplication.ignored.get() - ignoredBefore == 2);
			// Both handlers returned without reading; their answers wait while the rest
			// of
			// each body is read (up to the bound), and that is still the request in
			// flight.
			for (Socket socket : trickling) {
				assertThat(readHead(socket.getInputStream())).as("no answer while the body drains").isEmpty();
			}
			HttpResponse<String> atOne = send(app, "/long?ms=0");
			sleepUntil(t0 + 4_000);
			HttpResponse<String> atFour = send(app, "/long?ms=0");

			assertThat(atOne.statusCode()).as("max 2, both draining").isEqualTo(429);
			assertThat(atOne.body()).contains("\"bound\":\"concurrency\"");
			assertThat(atFour.statusCode()).as("past the 3 s lease, both still draining").isEqualTo(429);
			for (Socket socket : trickling) {
				socket.setSoTimeout(10_000);
				write(socket, "1\r\nb\r\n0\r\n\r\n");
				assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 200 ");
			}
			assertThat(send(app, "/long?ms=0").statusCode()).as("the drains ended, their leases went back")
				.isEqualTo(200);
		}
		finally {
			for (Socket socket : trickling) {
				socket.close();
			}
		}
	}

	private ConfigurableApplicationContext start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.data.redis.host=" + redis.server().host(),
				"spring.data.redis.port=" + redis.port(), "limiter.routes[0].pattern=/long",
				"limiter.routes[0].expensive=true", "limiter.budgets.anonymous.windows.minute.limit=1000",
				"limiter.budgets.anonymous.windows.minute.duration=1m", "limiter.budgets.anonymous.concurrency.max=2",
				"limiter.budgets.anonymous.concurrency.lease=3s"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(LeaseTestApplication.class)
			.properties(all.toArray(String[]::new))
			.run();
		contexts.add(context);
		return context;
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((ServletWebServerApplicationContext) context).getWebServer().getPort();
	}

	private HttpRequest request(ConfigurableApplicationContext app, String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(app) + path))
			.timeout(Duration.ofSeconds(40))
			.GET()
			.build();
	}

	private HttpResponse<String> send(ConfigurableApplicationContext app, String path) throws Exception {
		return http.send(request(app, path), HttpResponse.BodyHandlers.ofString());
	}

	private CompletableFuture<HttpResponse<String>> sendAsync(ConfigurableApplicationContext app, String path) {
		return http.sendAsync(request(app, path), HttpResponse.BodyHandlers.ofString());
	}

	private static void sleepUntil(long epochMillis) throws InterruptedException {
		long left = epochMillis - System.currentTimeMillis();
		if (left > 0) {
			Thread.sleep(left);
		}
	}

	private static void write(Socket socket, String text) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(text.getBytes(StandardCharsets.ISO_8859_1));
		out.flush();
	}

	/** Reads up to the end of one response head, or what came before the timeout. */
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
