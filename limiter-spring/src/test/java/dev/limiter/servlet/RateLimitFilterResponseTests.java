package dev.limiter.servlet;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.spring.RouteResolver;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Unit tests of the filter's responses, on mock requests, one thread and a fixed clock
 * (no server, no Spring context; the HTTP tests are {@code RateLimitFilterTests} in the
 * Boot 3 starter): which responses a shared cache may store (RFC 9111), the IETF fields
 * of a concurrency refusal, and that every lease comes back whichever way the request
 * ends.
 */
class RateLimitFilterResponseTests {

	// 2030-01-01T00:00:18Z: 42 s left in the minute
	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	private static final Budget STANDARD = Budget.builder("standard")
		.window("minute", 600, Duration.ofMinutes(1))
		.concurrency(1, Duration.ofSeconds(30))
		.build();

	private static final Budget ANONYMOUS = Budget.builder("anonymous")
		.window("minute", 60, Duration.ofMinutes(1))
		.build();

	private final RecordingReleases store = new RecordingReleases(RateLimitStores.inMemory(1_000));

	private final ObjectMapper json = new ObjectMapper();

	// ---- shared caches (RFC 9111) ----

	@Test
	void countersWhenAnonymousResponseHasMaxAgeShouldBeOmitted() throws Exception {
		assertThat(admitted(false, r -> r.setHeader("Cache-Control", "max-age=60")).getHeader("X-RateLimit-Limit"))
			.isNull();
	}

	@Test
	void countersWhenAnonymousResponseHasExpiresShouldBeOmitted() throws Exception {
		assertThat(admitted(false, r -> r.setHeader("Expires", "Wed, 01 Jan 2031 00:00:00 GMT"))
			.getHeader("X-RateLimit-Limit")).isNull();
	}

	@Test
	void countersWhenResponseHasCdnCacheControlShouldBeOmitted() throws Exception {
		assertThat(admitted(true, r -> r.setHeader("CDN-Cache-Control", "max-age=60")).getHeader("X-RateLimit-Limit"))
			.isNull();
	}

	@Test
	void countersWhenResponseHasSurrogateControlShouldBeOmitted() throws Exception {
		assertThat(admitted(true, r -> r.setHeader("Surrogate-Control", "max-age=60")).getHeader("X-RateLimit-Limit"))
			.isNull();
	}

	@Test
	void countersWhenAuthenticatedResponseHasMustRevalidateShouldBeOmitted() throws Exception {
		assertThat(admitted(true, r -> r.setHeader("Cache-Control", "max-age=60, must-revalidate"))
			.getHeader("X-RateLimit-Limit")).isNull();
	}

	@Test
	void countersWhenAuthenticatedResponseHasOnlyMaxAgeShouldBeWritten() throws Exception {
		// RFC 9111 3.5: a shared cache may not store a response to a request with
		// Authorization on max-age alone
		assertThat(admitted(true, r -> r.setHeader("Cache-Control", "max-age=60")).getHeader("X-RateLimit-Limit"))
			.isEqualTo("600");
	}

	@Test
	void countersWhenResponseIsPrivateShouldBeWritten() throws Exception {
		assertThat(admitted(false, r -> {
			r.setHeader("Cache-Control", "private, max-age=60");
			r.setHeader("Expires", "Wed, 01 Jan 2031 00:00:00 GMT");
		}).getHeader("X-RateLimit-Limit")).isEqualTo("60");
	}

	@Test
	void countersWhenCdnCacheControlSaysNoStoreShouldBeWritten() throws Exception {
		assertThat(admitted(false, r -> r.setHeader("CDN-Cache-Control", "no-store")).getHeader("X-RateLimit-Limit"))
			.isEqualTo("60");
	}

	// ---- IETF fields: the concurrency bound is its own policy ----

	@Test
	void concurrencyRefusalWhenIetfFieldsAreOnShouldNameTheConcurrencyPolicy() throws Exception {
		RateLimitFilter filter = filter(new DefaultRateLimitResponseWriter(true, true));
		filter.doFilter(expensive(), new MockHttpServletResponse(), (req, res) -> {
			MockHttpServletResponse refused = new MockHttpServletResponse();
			try {
				filter.doFilter(expensive(), refused, (q, s) -> {
				});
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
			assertThat(refused.getStatus()).isEqualTo(429);
			assertThat(refused.getHeader("RateLimit-Policy"))
				.isEqualTo("\"minute\";q=600;w=60, \"concurrency\";q=1;qu=\"concurrent-requests\"");
			assertThat(refused.getHeader("RateLimit")).isEqualTo("\"concurrency\";r=0;t=30");
			assertThat(refused.getHeader("X-RateLimit-Limit")).as("X-RateLimit-* stay on the binding window")
				.isEqualTo("600");
			try {
				JsonNode body = json.readTree(refused.getContentAsString());
				assertThat(body.get("type").asText()).isEqualTo(DefaultRateLimitResponseWriter.QUOTA_EXCEEDED_TYPE);
				assertThat(body.get("violated-policies")).hasSize(1);
				assertThat(body.get("violated-policies").get(0).asText()).isEqualTo("concurrency");
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	@Test
	void refusalWhenIetfFieldsAreOffShouldKeepAboutBlank() throws Exception {
		RateLimitFilter filter = filter(new DefaultRateLimitResponseWriter(true, false));
		MockHttpServletResponse refused = new MockHttpServletResponse();
		filter.doFilter(expensive(), new MockHttpServletResponse(),
				(req, res) -> run(() -> filter.doFilter(expensive(), refused, (q, s) -> {
				})));
		assertThat(refused.getStatus()).isEqualTo(429);
		assertThat(json.readTree(refused.getContentAsString()).get("type").asText()).isEqualTo("about:blank");
	}

	// ---- leases always come back ----

	@Test
	void leaseWhenResponseWriterThrowsWritingCountersShouldBeReleased() throws Exception {
		RateLimitFilter filter = filter(new ThrowingWriter());
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(expensive(), response, (req, res) -> ((HttpServletResponse) res).setStatus(204));
		assertThat(store.releases).hasSize(1);
		assertThat(response.getStatus()).isEqualTo(204);
	}

	@Test
	void leaseWhenAsyncRequestTimesOutShouldBeReleased() throws Exception {
		MockAsyncContext async = startAsyncAndReturn();
		assertThat(store.releases).isEmpty();
		for (AsyncListener listener : async.getListeners()) {
			listener.onTimeout(new AsyncEvent(async));
		}
		assertThat(store.releases).hasSize(1);
	}

	@Test
	void leaseWhenAsyncRequestFailsShouldBeReleased() throws Exception {
		MockAsyncContext async = startAsyncAndReturn();
		assertThat(store.releases).isEmpty();
		for (AsyncListener listener : async.getListeners()) {
			listener.onError(new AsyncEvent(async, new IOException("Broken pipe")));
		}
		assertThat(store.releases).hasSize(1);
	}

	@Test
	void leaseWhenClientDisconnectsWhileTheBodyIsWrittenShouldBeReleased() {
		RateLimitFilter filter = filter(new DefaultRateLimitResponseWriter(true, true));
		assertThatThrownBy(() -> filter.doFilter(expensive(), new MockHttpServletResponse(), (req, res) -> {
			res.getOutputStream().write('x');
			throw new IOException("Connection reset by peer");
		})).isInstanceOf(IOException.class);
		assertThat(store.releases).hasSize(1);
	}

	private MockAsyncContext startAsyncAndReturn() throws Exception {
		RateLimitFilter filter = filter(new DefaultRateLimitResponseWriter(true, true));
		MockHttpServletRequest request = expensive();
		request.setAsyncSupported(true);
		filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> req.startAsync());
		return (MockAsyncContext) request.getAsyncContext();
	}

	private MockHttpServletResponse admitted(boolean authenticated,
			java.util.function.Consumer<HttpServletResponse> app) throws Exception {
		RateLimitFilter filter = filter(new DefaultRateLimitResponseWriter(true, true));
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/page");
		if (authenticated) {
			request.addHeader("Authorization", "Bearer good");
		}
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(request, response, (req, res) -> {
			app.accept((HttpServletResponse) res);
			res.getOutputStream().write("page".getBytes());
		});
		assertThat(response.getStatus()).isEqualTo(200);
		return response;
	}

	private static MockHttpServletRequest expensive() {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/work");
		request.addHeader("Authorization", "Bearer good");
		return request;
	}

	private RateLimitFilter filter(RateLimitResponseWriter writer) {
		BudgetRegistry budgets = new BudgetRegistry(List.of(STANDARD, ANONYMOUS), "standard", "anonymous");
		RouteResolver routes = request -> "/work".equals(request.getRequestURI())
				? new RoutePolicy("/work", null, true, false, null) : RoutePolicy.DEFAULT;
		return RateLimitFilter
			.builder(new RateLimitRules(budgets, BudgetOptions.DEFAULTS, routes), store,
					request -> request.getHeader("Authorization") != null
							? CallerKey.authenticated("t:good", () -> "good") : CallerKey.anonymous("a:127.0.0.1"),
					writer)
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.build();
	}

	private static void run(ThrowingRunnable runnable) {
		try {
			runnable.run();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	interface ThrowingRunnable {

		void run() throws Exception;

	}

	static final class ThrowingWriter extends DefaultRateLimitResponseWriter {

		ThrowingWriter() {
			super(true, true);
		}

		@Override
		public void writeCounters(HttpServletResponse response, Decision decision) {
			throw new IllegalStateException("custom writer failed");
		}

	}

	static final class RecordingReleases extends ForwardingRateLimitStore {

		private final RateLimitStore delegate;

		final List<Lease> releases = new CopyOnWriteArrayList<>();

		RecordingReleases(RateLimitStore delegate) {
			this.delegate = delegate;
		}

		@Override
		protected RateLimitStore delegate() {
			return delegate;
		}

		@Override
		public void release(Lease lease, long nowMillis) {
			releases.add(lease);
			delegate.release(lease, nowMillis);
		}

		@Override
		public String name() {
			return "recording";
		}

	}

}
