package dev.limiter.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitUsage;
import dev.limiter.spring.RateLimited;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.EndedRequests;
import dev.limiter.test.web.GoodTokenSecurity;
import dev.limiter.test.web.MutableClock;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A client that goes away over a real port (Tomcat): it sends its request and closes the
 * socket before the answer is written, or while it is; the handler reports its tokens,
 * its write fails, and the request is settled exactly once with what was reported (the
 * store counts the reported amount, in memory and on Redis); the request ends and the
 * next one is answered.
 */
@UsesRedisServer
class ReserveSettleDisconnectHttpTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final long LIMIT = 100_000;

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void stop() {
		GoneController.gone.countDown();
		contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void clientWhenItDisconnectsShouldBeSettledOnceWithWhatWasReportedInMemory() throws Exception {
		ConfigurableApplicationContext app = start("limiter.store=memory");
		disconnectsAreSettledOnce(app);
	}

	@Test
	void clientWhenItDisconnectsShouldBeSettledOnceWithWhatWasReportedOnRedis() throws Exception {
		ConfigurableApplicationContext app = start("limiter.store=redis",
				"limiter.redis.key-prefix=gone-" + UUID.randomUUID());
		disconnectsAreSettledOnce(app);
	}

	private void disconnectsAreSettledOnce(ConfigurableApplicationContext app) throws Exception {
		// gone before the answer: the handler reports, then its write fails
		String before = "good-gone-" + UUID.randomUUID();
		goneBeforeTheAnswer(app, "/gone/before?tokens=700", before);
		assertSettledOnce(app, before, "completion tokens +600 -0", 700);

		// gone while the answer is written: the write fails, the handler reports as it
		// gives up
		String writing = "good-gone-" + UUID.randomUUID();
		goneWhileAnswering(app, "/gone/writing?tokens=40", writing);
		assertSettledOnce(app, writing, "completion tokens +0 -60", 40);

		// nothing was held up: the next request of the same key is answered and counted
		HttpResponse<String> next = send(app, "/gone/ok", before);
		assertThat(next.statusCode()).isEqualTo(200);
		app.getBean(EndedRequests.class).await(1);
		await().atMost(Duration.ofSeconds(30)).until(() -> counted(app, before) == 700 + 100);
	}

	private void assertSettledOnce(ConfigurableApplicationContext app, String token, String settlement, long tokens)
			throws InterruptedException {
		EndedRequests ended = app.getBean(EndedRequests.class);
		Settlements settlements = app.getBean(Settlements.class);
		GoneController controller = app.getBean(GoneController.class);
		// the request's end has run once the request ended: every path that settles it
		ended.await(1);
		assertThat(controller.writeFailures.get()).as("the answer's write failed: the client was gone").isEqualTo(1);
		assertThat(settlements.calls).containsExactly(settlement);
		// on Redis the settlement is sent without waiting: it lands a moment later, once
		await().atMost(Duration.ofSeconds(30)).until(() -> counted(app, token) == tokens);
		assertThat(counted(app, token)).isEqualTo(tokens);
		assertThat(settlements.failed).isEmpty();
		settlements.calls.clear();
		controller.writeFailures.set(0);
	}

	/**
	 * Sends the request, waits until its handler runs, closes the socket, lets it go on.
	 */
	private void goneBeforeTheAnswer(ConfigurableApplicationContext app, String path, String token) throws Exception {
		GoneController.arm();
		try (Socket socket = new Socket("127.0.0.1", port(app))) {
			write(socket, path, token);
			assertThat(GoneController.started.await(30, TimeUnit.SECONDS)).as("handler started").isTrue();
		}
		GoneController.gone.countDown();
	}

	/**
	 * Sends the request, reads the start of the answer, closes the socket while the
	 * handler is still writing, lets it go on.
	 */
	private void goneWhileAnswering(ConfigurableApplicationContext app, String path, String token) throws Exception {
		GoneController.arm();
		try (Socket socket = new Socket("127.0.0.1", port(app))) {
			write(socket, path, token);
			assertThat(GoneController.started.await(30, TimeUnit.SECONDS)).as("handler started").isTrue();
			InputStream in = socket.getInputStream();
			byte[] head = new byte[12];
			int read = in.readNBytes(head, 0, head.length);
			assertThat(new String(head, 0, read, StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200");
		}
		GoneController.gone.countDown();
	}

	private static void write(Socket socket, String path, String token) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
				+ "\r\nContent-Length: 0\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private static HttpResponse<String> send(ConfigurableApplicationContext app, String path, String token)
			throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(app) + path))
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		app.getBean(EndedRequests.class).clear();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
	}

	/** The tokens the store counts for a credential's key, read without counting. */
	private static long counted(ConfigurableApplicationContext app, String token) {
		KeyState state = app.getBean(RateLimitStore.class)
			.peek(app.getBean(BudgetRegistry.class).get("completion"), ReserveSettleHttpTests.key(token),
					app.getBean("limiterClock", Clock.class).millis());
		return LIMIT - state.bounds()
			.stream()
			.filter((bound) -> bound.name().equals("tokens"))
			.findFirst()
			.orElseThrow()
			.remaining();
	}

	private static int port(ConfigurableApplicationContext app) {
		return Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
	}

	private ConfigurableApplicationContext start(String... store) {
		List<String> args = new ArrayList<>(
				List.of("--server.port=0", "--spring.jmx.enabled=false", "--limiter.auth-guard.enabled=false",
						"--limiter.default-budget=completion", "--limiter.budgets.completion.windows.minute.limit=60",
						"--limiter.budgets.completion.windows.minute.duration=1m",
						"--limiter.budgets.completion.windows.tokens.limit=" + LIMIT,
						"--limiter.budgets.completion.windows.tokens.duration=1m",
						"--limiter.budgets.completion.windows.tokens.unit=tokens", "--spring.data.redis.host=127.0.0.1",
						"--spring.data.redis.port=" + redis.port(), "--limiter.redis.timeout=10s"));
		for (String property : store) {
			args.add("--" + property);
		}
		ConfigurableApplicationContext app = new SpringApplicationBuilder(GoneApplication.class)
			.run(args.toArray(String[]::new));
		contexts.add(app);
		return app;
	}

	/** What the observer was told of settlements. */
	static class Settlements implements RateLimitObserver {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<String> failed = new CopyOnWriteArrayList<>();

		@Override
		public void onSettled(String budget, String unit, long charged, long refunded) {
			calls.add(budget + " " + unit + " +" + charged + " -" + refunded);
		}

		@Override
		public void onSettlementFailed(String budget, Throwable failure) {
			failed.add(budget + " " + failure);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(GoodTokenSecurity.class)
	static class GoneApplication {

		@Bean(name = "limiterClock")
		Clock limiterClock() {
			return new MutableClock(Instant.parse("2030-01-01T00:00:18Z"));
		}

		@Bean
		Settlements settlements() {
			return new Settlements();
		}

		@Bean
		EndedRequests endedRequests() {
			return new EndedRequests();
		}

		@Bean
		FilterRegistrationBean<EndedRequests> endedRequestsRegistration(EndedRequests ended) {
			return ended.registration();
		}

		@Bean
		GoneController goneController() {
			return new GoneController();
		}

	}

	@RestController
	@RateLimited(budget = "completion", estimates = @RateLimited.Estimate(unit = "tokens", amount = 100))
	static class GoneController {

		/**
		 * Far more than any socket buffer holds: writing it fails once the client is
		 * gone.
		 */
		private static final int CHUNKS = 1024;

		static volatile CountDownLatch started = new CountDownLatch(1);

		static volatile CountDownLatch gone = new CountDownLatch(1);

		final AtomicInteger writeFailures = new AtomicInteger();

		static void arm() {
			started = new CountDownLatch(1);
			gone = new CountDownLatch(1);
		}

		@PostMapping("/gone/before")
		void before(@RequestParam long tokens, HttpServletRequest request, HttpServletResponse response)
				throws Exception {
			started.countDown();
			gone.await(30, TimeUnit.SECONDS);
			RateLimitUsage.report(request, "tokens", tokens);
			writeUntilItFails(response);
		}

		@PostMapping("/gone/writing")
		void writing(@RequestParam long tokens, HttpServletRequest request, HttpServletResponse response)
				throws Exception {
			try {
				OutputStream out = response.getOutputStream();
				out.write(new byte[64 * 1024]);
				out.flush();
				started.countDown();
				gone.await(30, TimeUnit.SECONDS);
				writeUntilItFails(response);
			}
			finally {
				RateLimitUsage.report(request, "tokens", tokens);
			}
		}

		@PostMapping("/gone/ok")
		String ok() {
			return "ok";
		}

		private void writeUntilItFails(HttpServletResponse response) throws IOException {
			byte[] chunk = new byte[64 * 1024];
			try {
				OutputStream out = response.getOutputStream();
				for (int i = 0; i < CHUNKS; i++) {
					out.write(chunk);
					out.flush();
				}
			}
			catch (IOException ex) {
				writeFailures.incrementAndGet();
				throw ex;
			}
		}

	}

}
