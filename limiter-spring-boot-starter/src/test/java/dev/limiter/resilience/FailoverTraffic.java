package dev.limiter.resilience;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failover seen by a client: a servlet application on the Redis store, and a steady
 * stream of requests whose status and degraded header are recorded with the time they
 * were answered.
 */
final class FailoverTraffic implements AutoCloseable {

	static final String DEGRADED = "X-RateLimit-Degraded";

	record Answer(long nanos, int status, boolean degraded) {
	}

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ConfigurableApplicationContext app;

	private final int port;

	final List<Answer> answers = new ArrayList<>();

	FailoverTraffic(String... redisProperties) {
		List<String> properties = new ArrayList<>(List.of("server.port=0", "limiter.store=redis",
				"limiter.budgets.anonymous.windows.minute.limit=1000000",
				"limiter.budgets.anonymous.windows.hour.limit=1000000", "management.health.redis.enabled=false"));
		properties.addAll(List.of(redisProperties));
		app = new SpringApplicationBuilder(StoreFailureTestApplication.class).web(WebApplicationType.SERVLET)
			.properties(properties.toArray(String[]::new))
			.run();
		port = ((WebServerApplicationContext) app).getWebServer().getPort();
	}

	ConfigurableApplicationContext app() {
		return app;
	}

	Answer ping() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping"))
			.timeout(Duration.ofSeconds(30))
			.GET()
			.build();
		HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
		Answer answer = new Answer(System.nanoTime(), response.statusCode(),
				"true".equals(response.headers().firstValue(DEGRADED).orElse(null)));
		answers.add(answer);
		return answer;
	}

	/**
	 * A cold JVM may miss the timeout on its first decisions: start from a warm,
	 * authoritative limiter.
	 */
	void awaitAuthoritative(int seconds) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
		int inARow = 0;
		while (inARow < 5) {
			assertThat(System.nanoTime()).as("authoritative within " + seconds + " s").isLessThan(deadline);
			inARow = ping().degraded() ? 0 : inARow + 1;
			Thread.sleep(20);
		}
		answers.clear();
	}

	/**
	 * Sends a request every {@code pauseMillis} until {@code done} holds, at most
	 * {@code seconds}; {@code each} is polled after every answer (to notice the
	 * promotion).
	 */
	void run(int seconds, long pauseMillis, Runnable each, BooleanSupplier done) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
		while (!done.getAsBoolean() && System.nanoTime() < deadline) {
			ping();
			each.run();
			Thread.sleep(pauseMillis);
		}
	}

	/** Whether the last {@code n} answers were authoritative. */
	boolean lastAuthoritative(int n) {
		if (answers.size() < n) {
			return false;
		}
		return answers.subList(answers.size() - n, answers.size()).stream().noneMatch(Answer::degraded);
	}

	/**
	 * When the final authoritative run of answers began (the limiter healed), or -1 while
	 * it is degraded.
	 */
	long healedAt() {
		if (answers.isEmpty() || answers.get(answers.size() - 1).degraded()) {
			return -1;
		}
		int i = answers.size() - 1;
		while (i > 0 && !answers.get(i - 1).degraded()) {
			i--;
		}
		return answers.get(i).nanos();
	}

	/**
	 * The degraded header as a string of 0 and 1, one per answer, for assertions on its
	 * shape.
	 */
	String degradedShape() {
		StringBuilder shape = new StringBuilder();
		answers.forEach(a -> shape.append(a.degraded() ? '1' : '0'));
		return shape.toString();
	}

	@Override
	public void close() {
		app.close();
	}

}
