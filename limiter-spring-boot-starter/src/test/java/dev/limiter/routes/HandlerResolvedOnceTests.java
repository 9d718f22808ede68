package dev.limiter.routes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.guard.GuardTestApplication;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The handler is resolved once per request: the dispatcher gets the limiter's lookup
 * instead of its own pass.
 */
@SpringBootTest(classes = { GuardTestApplication.class, HandlerResolvedOnceTests.Counting.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HandlerResolvedOnceTests {

	static final AtomicInteger byDispatcher = new AtomicInteger();
	static final AtomicInteger byOthers = new AtomicInteger();

	@LocalServerPort
	private int port;

	@Test
	void dispatcherWhenTheLimiterResolvedTheHandlerShouldNotMapItAgain() throws Exception {
		int dispatcherBefore = byDispatcher.get();
		int othersBefore = byOthers.get();

		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/public/hello")).GET().build(),
					HttpResponse.BodyHandlers.ofString());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("hello");
		assertThat(byOthers.get() - othersBefore).as("the limiter's lookup").isPositive();
		assertThat(byDispatcher.get() - dispatcherBefore).as("the dispatcher's own pass").isZero();
	}

	/**
	 * A mapping that finds nothing and counts who asked it: the dispatcher, or anyone
	 * else (the limiter).
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class Counting {

		@Bean
		HandlerMapping countingHandlerMapping() {
			return new CountingMapping();
		}

	}

	static final class CountingMapping implements HandlerMapping, Ordered {

		@Override
		public HandlerExecutionChain getHandler(HttpServletRequest request) {
			boolean dispatcher = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
				.walk(frames -> frames.skip(1).findFirst())
				.map(frame -> DispatcherServlet.class.isAssignableFrom(frame.getDeclaringClass()))
				.orElse(false);
			(dispatcher ? byDispatcher : byOthers).incrementAndGet();
			return null;
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE + 1;
		}

	}

}
