package dev.limiter.test.web;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The measurement of the store-failure tests of every web stack: the latencies of a route
 * the limiter does not count while callers keep sending requests to a limited route. The
 * test freezes the store (a {@code redis-server} under {@code SIGSTOP}) between two
 * measurements and compares their p99: with the store frozen every limited request waits
 * for it until the store's timeout, and the uncounted route must not wait with it.
 *
 * <p>
 * Each waiting caller sends one limited request at a time, each starting at most once per
 * store timeout: frozen, every one of them waits for the store; unfrozen, the same
 * requests at the same pace are answered at once, so both measurements carry the same
 * load and differ only by the waiting.
 */
public final class FrozenStoreLatency {

	private final HttpClient http = client();

	private final HttpClient limitedCallers = client();

	private final Function<String, HttpRequest> requests;

	private final String limitedPath;

	private final String uncountedPath;

	private final Duration storeTimeout;

	private final int waitingCallers;

	private final int samples;

	/**
	 * @param requests the GET of a path on the application under test (with whatever
	 * credential it needs)
	 * @param limitedPath a path the limiter counts
	 * @param uncountedPath a path the limiter does not count (exempt)
	 * @param storeTimeout the store's timeout ({@code limiter.redis.timeout}): how often
	 * each waiting caller sends a request, at most
	 * @param waitingCallers how many callers keep a limited request in flight
	 * @param samples how many requests to the uncounted route one measurement times
	 */
	public FrozenStoreLatency(Function<String, HttpRequest> requests, String limitedPath, String uncountedPath,
			Duration storeTimeout, int waitingCallers, int samples) {
		this.requests = requests;
		this.limitedPath = limitedPath;
		this.uncountedPath = uncountedPath;
		this.storeTimeout = storeTimeout;
		this.waitingCallers = waitingCallers;
		this.samples = samples;
	}

	/**
	 * Waits until the limited route is answered by the store, not degraded, then warms
	 * both routes: a cold JVM on a busy machine may miss the timeout on its first
	 * decisions, so each test starts from a warm, authoritative limiter.
	 */
	public void awaitAuthoritative() throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (header(get(limitedPath), "X-RateLimit-Degraded") != null) {
			assertThat(System.nanoTime()).as("authoritative within 20 s of start-up").isLessThan(deadline);
			Thread.sleep(50);
		}
		for (int i = 0; i < 50; i++) {
			get(limitedPath);
			get(uncountedPath);
		}
	}

	/**
	 * The uncounted route's latencies in milliseconds, each of its responses checked
	 * (200, no counter header), while the waiting callers send limited requests.
	 * @param limited receives every limited response answered meanwhile
	 */
	public List<Long> uncountedLatenciesBeside(List<HttpResponse<String>> limited) throws Exception {
		AtomicBoolean measuring = new AtomicBoolean(true);
		List<CompletableFuture<Void>> callers = new ArrayList<>();
		for (int i = 0; i < waitingCallers; i++) {
			callers.add(keepCalling(measuring, limited));
		}
		try {
			List<Long> latencies = new ArrayList<>();
			for (int i = 0; i < samples; i++) {
				long start = System.nanoTime();
				HttpResponse<String> response = get(uncountedPath);
				latencies.add(Duration.ofNanos(System.nanoTime() - start).toMillis());
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(header(response, "X-RateLimit-Limit")).as("not counted").isNull();
			}
			return latencies;
		}
		finally {
			measuring.set(false);
			CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		}
	}

	/**
	 * One waiting caller: a request at a time to the limited route, the next one sent a
	 * store timeout after the one before, until the measurement ends.
	 */
	private CompletableFuture<Void> keepCalling(AtomicBoolean measuring, List<HttpResponse<String>> answered) {
		long start = System.nanoTime();
		return limitedCallers.sendAsync(requests.apply(limitedPath), HttpResponse.BodyHandlers.ofString())
			.thenCompose((response) -> {
				answered.add(response);
				if (!measuring.get()) {
					return CompletableFuture.completedFuture(null);
				}
				long pause = Math.max(0,
						storeTimeout.toMillis() - Duration.ofNanos(System.nanoTime() - start).toMillis());
				return CompletableFuture
					.supplyAsync(() -> null, CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS))
					.thenCompose((paused) -> keepCalling(measuring, answered));
			});
	}

	/** A GET of {@code path}, waited for. */
	public HttpResponse<String> get(String path) throws Exception {
		return http.send(requests.apply(path), HttpResponse.BodyHandlers.ofString());
	}

	/** The 99th percentile of {@code latencies}. */
	public static long p99(List<Long> latencies) {
		List<Long> sorted = new ArrayList<>(latencies);
		Collections.sort(sorted);
		return sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1);
	}

	/** The first value of a response header, {@code null} without one. */
	public static String header(HttpResponse<?> response, String name) {
		return response.headers().firstValue(name).orElse(null);
	}

	/** HTTP/1.1: what every server under test speaks to its clients. */
	private static HttpClient client() {
		return HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
	}

}
