package dev.limiter.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.Budget;
import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitUsage;
import dev.limiter.spring.RateLimited;
import dev.limiter.test.web.EndedRequests;
import dev.limiter.test.web.GoodTokenSecurity;
import dev.limiter.test.web.MutableClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
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
 * settled exactly once, with what was reported, when it ends (the store counts the
 * estimate plus the difference, once); a route's estimates come from
 * {@code @RateLimited}. A report after the request ended settles nothing and is counted
 * as dropped. Each test waits for its request's end as an event ({@link EndedRequests}),
 * never for a while.
 */
@SpringBootTest(classes = ReserveSettleHttpTests.UnitsApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.auth-guard.enabled=false", "limiter.default-budget=completion",
				"limiter.budgets.completion.windows.minute.limit=60",
				"limiter.budgets.completion.windows.minute.duration=1m",
				"limiter.budgets.completion.windows.tokens.limit=100000",
				"limiter.budgets.completion.windows.tokens.duration=1m",
				"limiter.budgets.completion.windows.tokens.unit=tokens",
				"limiter.budgets.completion.windows.tokens.max-report=50000" })
class ReserveSettleHttpTests {

	private static final long LIMIT = 100_000;

	private final HttpClient http = HttpClient.newHttpClient();

	/** Each test's own credential, so that each counts on a key of its own. */
	private final String token = "good-units-" + UUID.randomUUID();

	@LocalServerPort
	private int port;

	@Autowired
	private Settlements settlements;

	@Autowired
	private EndedRequests ended;

	@Autowired
	private RateLimitStore store;

	@Autowired
	private BudgetRegistry budgets;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	@Autowired
	private UnitsController controller;

	@Autowired
	private MeterRegistry meters;

	@BeforeEach
	void clear() {
		settlements.calls.clear();
		settlements.dropped.clear();
	}

	@Test
	void handlerWhenItReportsAndReturnsShouldBeSettledOnceWithTheDifference() throws Exception {
		assertThat(send("/units/sync?tokens=250").statusCode()).isEqualTo(200);

		assertThat(settled()).containsExactly("completion tokens +150 -0");
		assertThat(settlements.reserved).contains("completion tokens 100");
		assertThat(counted()).isEqualTo(250);
	}

	@Test
	void handlerWhenItReportsThenThrowsShouldStillBeSettledOnce() throws Exception {
		assertThat(send("/units/throw?tokens=30").statusCode()).isEqualTo(500);

		assertThat(settled()).containsExactly("completion tokens +0 -70");
		assertThat(counted()).isEqualTo(30);
	}

	@Test
	void deferredResultWhenReportedLateFromAnotherThreadShouldBeSettledOnceAtTheEnd() throws Exception {
		HttpResponse<String> response = send("/units/deferred?tokens=400");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("done");
		assertThat(settled()).containsExactly("completion tokens +300 -0");
		assertThat(counted()).isEqualTo(400);
	}

	@Test
	void streamingBodyWhenReportingFromItsCallbackShouldBeSettledOnceAtTheEnd() throws Exception {
		HttpResponse<String> response = send("/units/stream?tokens=5");

		assertThat(response.body()).isEqualTo("streamed");
		assertThat(settled()).containsExactly("completion tokens +0 -95");
		assertThat(counted()).isEqualTo(5);
	}

	@Test
	void handlerWhenItReportsNothingShouldKeepItsEstimate() throws Exception {
		assertThat(send("/units/silent").statusCode()).isEqualTo(200);

		// settled once, nothing changed: no unit was reported
		assertThat(settled()).isEmpty();
		assertThat(settlements.reserved).contains("completion tokens 100");
		assertThat(counted()).isEqualTo(100);
	}

	@Test
	void reportWhenMadeAfterTheRequestEndedShouldSettleNothingAndBeCountedAsDropped() throws Exception {
		assertThat(send("/units/deferred?tokens=400").statusCode()).isEqualTo(200);
		assertThat(settled()).containsExactly("completion tokens +300 -0");

		// the settlement has been sent: a second report, made late, settles nothing
		assertThat(controller.lastUsage.add("tokens", 50)).isFalse();
		assertThat(controller.lastUsage.add("rows", 7)).isFalse();

		assertThat(settlements.dropped).containsExactly("completion tokens reported-after-end",
				"completion none reported-after-end");
		assertThat(settlements.calls).containsExactly("completion tokens +300 -0");
		assertThat(counted()).isEqualTo(400);
	}

	@Test
	void reportWhenItAddsUpBeyondTheLongRangeShouldBeClampedAtTheMaxReportAndCountedAsDropped() throws Exception {
		double clamped = dropped("tokens", "clamped");

		// Long.MAX_VALUE tokens, then 3 more: a sum that would wrap, above max-report
		assertThat(send("/units/sync?tokens=" + Long.MAX_VALUE + "&also=tokens").statusCode()).isEqualTo(200);

		assertThat(settled()).containsExactly("completion tokens +49900 -0");
		assertThat(settlements.dropped).containsExactly("completion tokens clamped");
		assertThat(dropped("tokens", "clamped") - clamped).isEqualTo(1);
		assertThat(counted()).isEqualTo(50_000);
	}

	@Test
	void reportWhenOfAUnitTheBudgetDoesNotCountShouldBeCountedAsDropped() throws Exception {
		assertThat(send("/units/sync?tokens=100&also=rows").statusCode()).isEqualTo(200);

		assertThat(settled()).isEmpty();
		assertThat(settlements.dropped).containsExactly("completion none unit-not-counted");
		assertThat(counted()).isEqualTo(100);
	}

	@Test
	void settlementWhenTheWindowEndedBeforeTheReportShouldBeDroppedAndCountedNotChargedToTheNextWindow()
			throws Exception {
		clock.set(Instant.parse("2030-01-01T01:00:50Z"));
		double windowEnded = dropped("tokens", "window-ended");
		controller.later = new CompletableFuture<>();
		CompletableFuture<HttpResponse<String>> response = sendAsync("/units/later");
		Later later = controller.later.get(30, TimeUnit.SECONDS);

		// the handler's work outlives the minute it reserved in, then reports
		clock.set(Instant.parse("2030-01-01T01:01:05Z"));
		later.usage().add("tokens", 900);
		later.result().setResult("late");

		assertThat(response.get(30, TimeUnit.SECONDS).body()).isEqualTo("late");
		settled();
		assertThat(settlements.dropped).containsExactly("completion tokens window-ended");
		assertThat(dropped("tokens", "window-ended") - windowEnded).isEqualTo(1);
		// the minute that counts now was not charged for what the last one used
		assertThat(counted()).isZero();
	}

	@Test
	void metersWhenRequestsReserveSettleAndReportLateShouldCountUnitsPerBudgetAndUnit() throws Exception {
		double reserved = unitCount("limiter.units.reserved");
		double charged = unitCount("limiter.units.settled");
		double refunded = unitCount("limiter.units.refunded");
		double late = dropped("tokens", "reported-after-end");

		send("/units/sync?tokens=250");
		settled();
		send("/units/deferred?tokens=40");
		settled();
		controller.lastUsage.add("tokens", 9);

		assertThat(unitCount("limiter.units.reserved") - reserved).isEqualTo(200);
		assertThat(unitCount("limiter.units.settled") - charged).isEqualTo(150);
		assertThat(unitCount("limiter.units.refunded") - refunded).isEqualTo(60);
		assertThat(dropped("tokens", "reported-after-end") - late).isEqualTo(1);
	}

	private double unitCount(String name) {
		Counter counter = meters.find(name).tags("budget", "completion", "unit", "tokens").counter();
		return (counter != null) ? counter.count() : 0;
	}

	private double dropped(String window, String reason) {
		Counter counter = meters.find("limiter.settlements.dropped")
			.tags("budget", "completion", "window", window, "reason", reason)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	/**
	 * The settlements seen once the request ended: its end runs after the response may
	 * have reached the client (the body is flushed before the handler returns; an
	 * asynchronous request ends as its response completes), so this waits for the end
	 * itself. Every path that could settle the request has run by then, so a second
	 * settlement, were there one, is in the list.
	 */
	private List<String> settled() throws InterruptedException {
		ended.await(1);
		return List.copyOf(settlements.calls);
	}

	/**
	 * How many tokens the store counts for this test's key: the in-memory store applies a
	 * settlement at once, under the key's lock, as the request ends.
	 */
	private long counted() {
		Budget budget = budgets.get("completion");
		KeyState state = store.peek(budget, key(token), clock.millis());
		return LIMIT - state.bounds()
			.stream()
			.filter((bound) -> bound.name().equals("tokens"))
			.findFirst()
			.orElseThrow()
			.remaining();
	}

	/** The counter key the limiter gives a credential: t: + its SHA-256. */
	static String key(String token) {
		try {
			byte[] sha256 = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
			return "t:" + Base64.getUrlEncoder().withoutPadding().encodeToString(sha256);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private CompletableFuture<HttpResponse<String>> sendAsync(String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		ended.clear();
		return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> send(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		ended.clear();
		return http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/** What the observer was told of reservations and settlements. */
	static class Settlements implements RateLimitObserver {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<String> reserved = new CopyOnWriteArrayList<>();

		final List<String> dropped = new CopyOnWriteArrayList<>();

		@Override
		public void onReserved(String budget, String unit, long amount) {
			reserved.add(budget + " " + unit + " " + amount);
		}

		@Override
		public void onSettled(String budget, String unit, long charged, long refunded) {
			calls.add(budget + " " + unit + " +" + charged + " -" + refunded);
		}

		@Override
		public void onSettlementDropped(String budget, String window, String reason) {
			dropped.add(budget + " " + window + " " + reason);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(GoodTokenSecurity.class)
	static class UnitsApplication {

		@Bean(name = "limiterClock")
		MutableClock limiterClock() {
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
		UnitsController unitsController() {
			return new UnitsController();
		}

	}

	@RestController
	@RateLimited(budget = "completion", estimates = @RateLimited.Estimate(unit = "tokens", amount = 100))
	static class UnitsController {

		/** The handle of the latest deferred request, for a report after it ended. */
		volatile RateLimitUsage lastUsage;

		/**
		 * Completed with the next {@code /units/later} request, which the test answers.
		 */
		volatile CompletableFuture<Later> later = new CompletableFuture<>();

		@PostMapping("/units/sync")
		String sync(@RequestParam long tokens, @RequestParam(required = false) String also,
				HttpServletRequest request) {
			RateLimitUsage.report(request, "tokens", tokens);
			if (also != null) {
				RateLimitUsage.report(request, also, 3);
			}
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
			lastUsage = usage;
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

		@PostMapping("/units/later")
		DeferredResult<String> later(HttpServletRequest request) {
			DeferredResult<String> result = new DeferredResult<>(30_000L);
			later.complete(new Later(RateLimitUsage.of(request).orElseThrow(), result));
			return result;
		}

		@PostMapping("/units/silent")
		String silent() {
			return "ok";
		}

	}

	/** A request still running: its usage handle and the answer the test gives it. */
	record Later(RateLimitUsage usage, DeferredResult<String> result) {
	}

}
