package dev.limiter.guard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import dev.limiter.metrics.MicrometerGuardEvents;
import dev.limiter.test.VirtualThreadsAvailable;
import dev.limiter.test.redis.RedisMonitor;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import dev.limiter.test.web.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one HTTP request sends to a real {@code redis-server}, read from MONITOR (commands
 * a script runs inside Redis not counted): one round trip when admitted, none when
 * refused from what the instance already knows, and the lease release of an expensive
 * route on top, asynchronously.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesRedisServer
class RequestPathRedisCommandsTests {

	/**
	 * Spring Boot's {@code spring.data.redis.client-type}; the Jedis subclass runs the
	 * same tests on Jedis.
	 */
	protected String clientType() {
		return "lettuce";
	}

	/**
	 * Spring Boot's {@code spring.threads.virtual.enabled}; the virtual-thread subclass
	 * runs the same tests with Tomcat's requests on virtual threads.
	 */
	protected boolean virtualThreads() {
		return false;
	}

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	/**
	 * Each test starts a day after the last: every window, lease, block and remembered
	 * credential has ended.
	 */
	private static final AtomicLong day = new AtomicLong();

	/**
	 * What an admitted request of a credential seen for the first time sends: the guard's
	 * reservation, the decision, and the guard's settlement after the response.
	 */
	private static final int FIRST_SEEN_CREDENTIAL = 3;

	/**
	 * What a failed lookup sends: the reservation, and the failure after the response.
	 */
	private static final int FAILED_LOOKUP = 2;

	private static ConfigurableApplicationContext app;

	private static RedisMonitor monitor;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private String token;

	@BeforeAll
	void start() throws Exception {
		// What a class run before left in the shared fields must not be closed twice when
		// this one is skipped.
		app = null;
		monitor = null;
		if (virtualThreads()) {
			VirtualThreadsAvailable.assume();
		}
		app = new SpringApplicationBuilder(GuardTestApplication.class)
			.properties("server.port=0", "limiter.store=redis", "spring.data.redis.client-type=" + clientType(),
					"spring.threads.virtual.enabled=" + virtualThreads(),
					"spring.data.redis.host=" + redis.server().host(), "spring.data.redis.port=" + redis.port(),
					"limiter.budgets.standard.windows.minute.limit=5",
					"limiter.budgets.anonymous.windows.minute.limit=3", "limiter.auth-guard.threshold=3",
					"limiter.routes[0].pattern=/expensive", "limiter.routes[0].budget=standard",
					"limiter.routes[0].expensive=true")
			.run();
		monitor = new RedisMonitor(redis.port());
		// Connecting and loading the scripts is start-up's business, not a request's.
		get("/public/hello", null);
		monitor.commandsOnceSent(1);
	}

	@AfterAll
	void stop() {
		if (monitor != null) {
			monitor.close();
		}
		if (app != null) {
			app.close();
		}
	}

	@BeforeEach
	void aNewDay() {
		long today = day.incrementAndGet();
		app.getBean("limiterClock", MutableClock.class)
			.set(GuardTestApplication.NOW.plus(Duration.ofDays(today)).plusMillis(today));
		token = "Bearer sp_good-commands-" + today;
	}

	@Test
	void admittedRequestWhenTheCredentialIsRememberedShouldSendOneCommand() throws Exception {
		assertThat(get("/hello", token).statusCode()).isEqualTo(200);
		monitor.commandsOnceSent(FIRST_SEEN_CREDENTIAL);

		assertThat(get("/hello", token).statusCode()).isEqualTo(200);

		assertThat(monitor.commandsOnceSent(1)).containsExactly("evalsha");
	}

	@Test
	void admittedRequestWhenExpensiveShouldSendOneCommandAndTheRelease() throws Exception {
		assertThat(get("/hello", token).statusCode()).isEqualTo(200);
		monitor.commandsOnceSent(FIRST_SEEN_CREDENTIAL);

		assertThat(get("/expensive", token).statusCode()).isEqualTo(200);

		assertThat(monitor.commandsOnceSent(2)).as("the decision, and the release sent after the response")
			.containsExactly("evalsha", "zrem");
	}

	@Test
	void refusalWhenTheCredentialIsKnownOverItsLimitShouldSendNothing() throws Exception {
		for (int i = 0; i < 5; i++) {
			assertThat(get("/hello", token).statusCode()).isEqualTo(200);
		}
		assertThat(get("/hello", token).statusCode()).as("the refusal Redis decides").isEqualTo(429);
		// the admissions' commands, the last settlement among them; the refusal's, if
		// any,
		// were sent before its response
		monitor.commandsOnceSent(FIRST_SEEN_CREDENTIAL + 4);

		assertThat(get("/hello", token).statusCode()).isEqualTo(429);

		assertThat(monitor.commandsUntilQuiet()).isEmpty();
	}

	@Test
	void admittedRequestWhenAnonymousShouldSendOneCommand() throws Exception {
		monitor.commandsUntilQuiet();

		assertThat(get("/public/hello", null).statusCode()).isEqualTo(200);

		assertThat(monitor.commandsOnceSent(1)).containsExactly("evalsha");
	}

	@Test
	void refusalWhenTheAnonymousCallerIsKnownOverItsLimitShouldSendNothing() throws Exception {
		for (int i = 0; i < 3; i++) {
			assertThat(get("/public/hello", null).statusCode()).isEqualTo(200);
		}
		assertThat(get("/public/hello", null).statusCode()).as("the refusal Redis decides").isEqualTo(429);
		monitor.commandsOnceSent(3);

		assertThat(get("/public/hello", null).statusCode()).isEqualTo(429);

		assertThat(monitor.commandsUntilQuiet()).isEmpty();
	}

	@Test
	void refusalWhenTheAddressIsKnownBlockedShouldSendNothing() throws Exception {
		double blocks = blocks();
		for (int i = 0; i < 3; i++) {
			assertThat(get("/hello", "Bearer sp_wrong-" + i).statusCode()).isEqualTo(401);
		}
		monitor.commandsOnceSent(3 * FAILED_LOOKUP);
		blockLearned(blocks);

		HttpResponse<String> refused = get("/hello", token);

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"bound\":\"block\"");
		assertThat(monitor.commandsUntilQuiet()).isEmpty();
	}

	@Test
	void admittedRequestWhenAProvenCredentialMeetsABlockShouldSendOnlyTheDecision() throws Exception {
		double blocks = blocks();
		assertThat(get("/hello", token).statusCode()).isEqualTo(200);
		for (int i = 0; i < 3; i++) {
			assertThat(get("/hello", "Bearer sp_wrong-" + i).statusCode()).isEqualTo(401);
		}
		monitor.commandsOnceSent(FIRST_SEEN_CREDENTIAL + 3 * FAILED_LOOKUP);
		blockLearned(blocks);

		assertThat(get("/hello", token).statusCode()).isEqualTo(200);

		assertThat(monitor.commandsUntilQuiet()).containsExactly("evalsha");
	}

	@Test
	void refusalWhenTheBlockedAddressHasProvenCredentialsShouldAskTheStoreInOneCommandBeforeAnyLookup()
			throws Exception {
		double blocks = blocks();
		assertThat(get("/hello", token).statusCode()).isEqualTo(200);
		for (int i = 0; i < 3; i++) {
			assertThat(get("/hello", "Bearer sp_wrong-" + i).statusCode()).isEqualTo(401);
		}
		monitor.commandsOnceSent(FIRST_SEEN_CREDENTIAL + 3 * FAILED_LOOKUP);
		blockLearned(blocks);
		int lookupsBefore = GuardTestApplication.lookups.get();

		HttpResponse<String> refused = get("/hello", token + "-unknown");

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"bound\":\"block\"");
		assertThat(monitor.linesUntilQuiet()).extracting(RequestPathRedisCommandsTests::step)
			.containsExactly("evalsha guard reserve");
		assertThat(GuardTestApplication.lookups.get()).isEqualTo(lookupsBefore);
	}

	@Test
	void requestWhenTheCredentialIsFirstSeenShouldReserveItsLookupInOneCommandBesidesTheDecision() throws Exception {
		monitor.commandsUntilQuiet();

		assertThat(get("/hello", token).statusCode()).isEqualTo(200);

		List<String> lines = monitor.linesOnceSent(FIRST_SEEN_CREDENTIAL);
		assertThat(lines).extracting(RequestPathRedisCommandsTests::step)
			.as("the guard's reservation, sent before the lookup; the budget decision, sent after it, whose reply "
					+ "comes with the reservation's; the guard's settlement, sent without waiting")
			.containsExactly("evalsha guard reserve", "evalsha take", "evalsha guard succeed");
	}

	@Test
	void failedLookupWhenTheCredentialIsWrongShouldSendTheReservationAndTheFailure() throws Exception {
		monitor.commandsUntilQuiet();

		assertThat(get("/hello", "Bearer wrong-" + day.get()).statusCode()).isEqualTo(401);

		List<String> lines = monitor.linesOnceSent(FAILED_LOOKUP);
		assertThat(lines).extracting(RequestPathRedisCommandsTests::step)
			.as("the reservation, read when the lookup failed; the failure, sent without waiting")
			.containsExactly("evalsha guard reserve", "evalsha guard fail");
	}

	/** The addresses this instance has blocked so far. */
	private static double blocks() {
		return app.getBean(MeterRegistry.class).counter(MicrometerGuardEvents.BLOCKS).count();
	}

	/**
	 * Waits until the instance has read the third failure's answer, which tells it of the
	 * block: MONITOR shows the failure sent, not its answer read, and a request sent in
	 * between would rightly ask Redis.
	 */
	private static void blockLearned(double blocksBefore) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (blocks() < blocksBefore + 1 && System.nanoTime() < deadline) {
			Thread.sleep(5);
		}
		assertThat(blocks()).as("the block learned from the third failure's answer").isEqualTo(blocksBefore + 1);
	}

	/** A command as MONITOR shows it, named by what it does for the request. */
	private static String step(String line) {
		String name = line.substring(line.indexOf("] \"") + 3, line.indexOf('"', line.indexOf("] \"") + 3))
			.toLowerCase(Locale.ROOT);
		for (String operation : List.of("reserve", "succeed", "fail", "release")) {
			if (line.contains(":{guard:") && line.contains("\"" + operation + "\"")) {
				return name + " guard " + operation;
			}
		}
		return name.equals("evalsha") ? name + " take" : name;
	}

	private HttpResponse<String> get(String path, String authorization) throws Exception {
		int port = ((ServletWebServerApplicationContext) app).getWebServer().getPort();
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.GET();
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
