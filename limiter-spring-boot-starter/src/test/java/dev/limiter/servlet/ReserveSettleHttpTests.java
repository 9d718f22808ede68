package dev.limiter.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitUsage;
import dev.limiter.spring.RateLimited;
import dev.limiter.test.web.GoodTokenSecurity;
import dev.limiter.test.web.MutableClock;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reserve and settle through the filter over a real port: each handler reports its tokens
 * in another way (returning, throwing, from another thread after the handler returned a
 * {@code DeferredResult}, from a {@code StreamingResponseBody}), and each request is
 * settled exactly once, with what was reported, when it ends; a route's estimates come
 * from {@code @RateLimited}.
 */
@SpringBootTest(classes = ReserveSettleHttpTests.UnitsApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.auth-guard.enabled=false", "limiter.default-budget=completion",
				"limiter.budgets.completion.windows.minute.limit=60",
				"limiter.budgets.completion.windows.minute.duration=1m",
				"limiter.budgets.completion.windows.tokens.limit=100000",
				"limiter.budgets.completion.windows.tokens.duration=1m",
				"limiter.budgets.completion.windows.tokens.unit=tokens" })
class ReserveSettleHttpTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private Settlements settlements;

	@BeforeEach
	void clear() {
		settlements.calls.clear();
	}

	@Test
	void handlerWhenItReportsAndReturnsShouldBeSettledOnceWithTheDifference() throws Exception {
		assertThat(send("/units/sync?tokens=250").statusCode()).isEqualTo(200);

		assertThat(settled()).containsExactly("completion tokens +150 -0");
		assertThat(settlements.reserved).contains("completion tokens 100");
	}

	@Test
	void handlerWhenItReportsThenThrowsShouldStillBeSettledOnce() throws Exception {
		assertThat(send("/units/throw?tokens=30").statusCode()).isEqualTo(500);

		assertThat(settled()).containsExactly("completion tokens +0 -70");
	}

	@Test
	void deferredResultWhenReportedLateFromAnotherThreadShouldBeSettledOnceAtTheEnd() throws Exception {
		HttpResponse<String> response = send("/units/deferred?tokens=400");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("done");
		assertThat(settled()).containsExactly("completion tokens +300 -0");
	}

	@Test
	void streamingBodyWhenReportingFromItsCallbackShouldBeSettledOnceAtTheEnd() throws Exception {
		HttpResponse<String> response = send("/units/stream?tokens=5");

		assertThat(response.body()).isEqualTo("streamed");
		assertThat(settled()).containsExactly("completion tokens +0 -95");
	}

	@Test
	void handlerWhenItReportsNothingShouldKeepItsEstimate() throws Exception {
		assertThat(send("/units/silent").statusCode()).isEqualTo(200);

		// settled once, nothing changed: no unit was reported
		assertThat(settled()).isEmpty();
		assertThat(settlements.reserved).contains("completion tokens 100");
	}

	/**
	 * The settlements seen once the request's end ran; the end of an asynchronous request
	 * runs on the container's thread as the response completes, so this waits for it a
	 * bounded while.
	 */
	private List<String> settled() throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (settlements.ended.isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		// a second settlement, were there one, would come right after the first
		Thread.sleep(50);
		return List.copyOf(settlements.calls);
	}

	private HttpResponse<String> send(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.header("Authorization", "Bearer good-units")
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		settlements.ended.clear();
		return http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/** What the observer was told of reservations and settlements. */
	static class Settlements implements RateLimitObserver {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<String> reserved = new CopyOnWriteArrayList<>();

		final List<String> ended = new CopyOnWriteArrayList<>();

		@Override
		public void onReserved(String budget, String unit, long amount) {
			reserved.add(budget + " " + unit + " " + amount);
		}

		@Override
		public void onSettled(String budget, String unit, long charged, long refunded) {
			calls.add(budget + " " + unit + " +" + charged + " -" + refunded);
			ended.add(budget);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(GoodTokenSecurity.class)
	static class UnitsApplication {

		@Bean(name = "limiterClock")
		Clock limiterClock() {
			return new MutableClock(Instant.parse("2030-01-01T00:00:18Z"));
		}

		@Bean
		Settlements settlements() {
			return new Settlements();
		}

		@Bean
		UnitsController unitsController() {
			return new UnitsController();
		}

	}

	@RestController
	@RateLimited(budget = "completion", estimates = @RateLimited.Estimate(unit = "tokens", amount = 100))
	static class UnitsController {

		@PostMapping("/units/sync")
		String sync(@RequestParam long tokens, HttpServletRequest request) {
			RateLimitUsage.report(request, "tokens", tokens);
			return "ok";
		}

		@PostMapping("/units/throw")
		String fail(@RequestParam long tokens) {
			RateLimitUsage.report("tokens", tokens);
			throw new IllegalStateException("the model failed after using " + tokens + " tokens");
		}

		@PostMapping("/units/deferred")
		DeferredResult<String> deferred(@RequestParam long tokens, HttpServletRequest request) {
			DeferredResult<String> result = new DeferredResult<>(30_000L);
			RateLimitUsage usage = RateLimitUsage.of(request).orElseThrow();
			CompletableFuture.runAsync(() -> {
				usage.add("tokens", tokens);
				result.setResult("done");
			});
			return result;
		}

		@PostMapping("/units/stream")
		StreamingResponseBody stream(@RequestParam long tokens, HttpServletRequest request) {
			RateLimitUsage usage = RateLimitUsage.of(request).orElseThrow();
			return (out) -> {
				out.write("streamed".getBytes(StandardCharsets.UTF_8));
				usage.add("tokens", tokens);
			};
		}

		@PostMapping("/units/silent")
		String silent() {
			return "ok";
		}

	}

}
