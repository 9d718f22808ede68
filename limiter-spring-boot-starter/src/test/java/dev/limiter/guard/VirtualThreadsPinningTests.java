package dev.limiter.guard;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.limiter.test.VirtualThreadsAvailable;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerProcess;
import dev.limiter.test.redis.UsesRedisServer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code spring.threads.virtual.enabled=true} the request path never pins a carrier:
 * JFR records no {@code jdk.VirtualThreadPinned} event (threshold 0) under a concurrent
 * HTTP load on a real port, on Redis through either client, over every path that talks to
 * Redis: a remembered credential, a first-seen one (the guard's reservation and
 * settlement), a wrong one (the guard's failure), an anonymous caller, an expensive route
 * (its lease and its release), a refusal. Skipped, saying why, on a JDK without virtual
 * threads.
 */
@UsesRedisServer
class VirtualThreadsPinningTests {

	private static final int CLIENT_THREADS = 16;

	private static final int REQUESTS_PER_THREAD = 150;

	/** Requests that ran on a virtual thread, and on a platform thread. */
	private static final Map<Boolean, AtomicLong> requestThreads = new ConcurrentHashMap<>();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void requestPathWhenOnVirtualThreadsShouldNeverPinACarrier(RedisClientKind client) throws Exception {
		VirtualThreadsAvailable.assume();
		requestThreads.clear();
		try (RedisServerProcess redis = RedisServerProcess.start();
				ConfigurableApplicationContext app = new SpringApplicationBuilder(GuardTestApplication.class,
						RequestThreads.class)
					.properties("server.port=0", "spring.threads.virtual.enabled=true", "limiter.store=redis",
							"spring.data.redis.client-type=" + client.clientType(), "spring.data.redis.host=127.0.0.1",
							"spring.data.redis.port=" + redis.port(),
							"limiter.budgets.standard.windows.minute.limit=1000000",
							"limiter.budgets.standard.windows.hour.limit=1000000",
							"limiter.budgets.standard.concurrency.max=1000",
							"limiter.budgets.anonymous.windows.minute.limit=1000000",
							"limiter.budgets.anonymous.windows.hour.limit=1000000",
							"limiter.auth-guard.threshold=1000000", "limiter.routes[0].pattern=/expensive",
							"limiter.routes[0].budget=standard", "limiter.routes[0].expensive=true")
					.run();
				Recording recording = new Recording()) {
			int port = ((ServletWebServerApplicationContext) app).getWebServer().getPort();
			// Warm: connecting, loading the scripts and one round of the same concurrent
			// load happen before the recording, so that the JDK's own first-use
			// initialisations under contention (class initialisers, a lock's first
			// thread-local) are not taken for the request path's.
			for (int i = 0; i < 20; i++) {
				get(port, "/hello", "Bearer sp_good-warm");
			}
			load(port);
			requestThreads.clear();
			recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
			// Not jdk.VirtualThreadStart as well: on JDK 25 committing that event can
			// itself pin (a contended monitor inside JFR's event writer), which says
			// nothing of the request path. The filter counts the virtual threads.
			recording.start();

			List<Integer> statuses = load(port);

			recording.stop();
			Path file = Files.createTempFile("pinning-", ".jfr");
			try {
				recording.dump(file);
				List<RecordedEvent> events = RecordingFile.readAllEvents(file);
				assertThat(statuses).hasSize(CLIENT_THREADS * REQUESTS_PER_THREAD)
					.allSatisfy(status -> assertThat(status).isIn(200, 401, 429));
				assertThat(requestThreads.getOrDefault(false, new AtomicLong()).get())
					.as("requests on platform threads")
					.isZero();
				assertThat(requestThreads.get(true).get()).as("requests on virtual threads")
					.isGreaterThanOrEqualTo(CLIENT_THREADS * REQUESTS_PER_THREAD);
				assertThat(events).filteredOn(e -> e.getEventType().getName().equals("jdk.VirtualThreadPinned"))
					.filteredOn(e -> !loadingAClass(e))
					.as("pinned virtual threads")
					.isEmpty();
			}
			finally {
				Files.deleteIfExists(file);
			}
		}
	}

	/**
	 * A pin inside class loading (the JVM reading a class from a jar, a native frame it
	 * cannot unmount across): the JDK's, on the first use of a class, not the request
	 * path's way of waiting. Seen once in a CI run, under {@code ZipFile}.
	 */
	private static boolean loadingAClass(RecordedEvent event) {
		RecordedStackTrace stack = event.getStackTrace();
		return stack != null && stack.getFrames().stream().anyMatch(frame -> {
			String type = frame.getMethod().getType().getName();
			return type.startsWith("jdk.internal.loader.") || type.equals("java.lang.ClassLoader");
		});
	}

	private List<Integer> load(int port) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(CLIENT_THREADS);
		try {
			List<Future<List<Integer>>> futures = new ArrayList<>();
			for (int t = 0; t < CLIENT_THREADS; t++) {
				int thread = t;
				futures.add(pool.submit(() -> {
					List<Integer> statuses = new ArrayList<>();
					for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
						statuses.add(switch (i % 5) {
							case 0 -> get(port, "/hello", "Bearer sp_good-known-" + thread);
							case 1 -> get(port, "/hello", "Bearer sp_good-first-seen-" + thread + "-" + i);
							case 2 -> get(port, "/hello", "Bearer wrong-" + thread + "-" + i);
							case 3 -> get(port, "/expensive", "Bearer sp_good-known-" + thread);
							default -> get(port, "/public/hello", null);
						});
					}
					return statuses;
				}));
			}
			List<Integer> all = new ArrayList<>();
			for (Future<List<Integer>> future : futures) {
				all.addAll(future.get(5, TimeUnit.MINUTES));
			}
			return all;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private int get(int port, String path, String authorization) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.GET();
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
	}

	@Configuration(proxyBeanMethods = false)
	static class RequestThreads {

		@Bean
		FilterRegistrationBean<OncePerRequestFilter> requestThreadFilter() {
			FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
					new OncePerRequestFilter() {

						@Override
						protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
								FilterChain chain) throws ServletException, IOException {
							requestThreads
								.computeIfAbsent(VirtualThreadsAvailable.currentThreadIsVirtual(),
										virtual -> new AtomicLong())
								.incrementAndGet();
							chain.doFilter(request, response);
						}

					});
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

	}

}
