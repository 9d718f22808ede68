package dev.limiter.observation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.guard.GuardTestApplication;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With Micrometer Tracing (its {@link SimpleTracer}) and Redis: the limiter's spans sit
 * in the request's trace, under the HTTP server's span; a refusal's span names the
 * refusing window and carries an event with the {@code Retry-After}; the wait on Redis is
 * a child span ({@code limiter store}); the settlement and the lease's release after the
 * response are children of the decision's span, in the same trace.
 */
@UsesRedisServer
class DecisionTracingRedisTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private static final SimpleTracer tracer = new SimpleTracer();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	void spansWhenRequestsAreDecidedOnRedisShouldShowTheRefusalTheWaitAndTheWorkAfterTheResponse() throws Exception {
		try (ConfigurableApplicationContext app = new SpringApplicationBuilder(GuardTestApplication.class,
				Tracing.class)
			.properties("server.port=0", "limiter.store=redis", "spring.data.redis.host=" + redis.server().host(),
					"spring.data.redis.port=" + redis.port(), "limiter.redis.key-prefix=tracing",
					"limiter.auth-guard.enabled=false", "limiter.budgets.standard.windows.minute.limit=2",
					"limiter.budgets.standard.windows.tokens.limit=1000",
					"limiter.budgets.standard.windows.tokens.duration=1m",
					"limiter.budgets.standard.windows.tokens.unit=tokens", "limiter.routes[0].pattern=/hello",
					"limiter.routes[0].estimates.tokens=10", "limiter.routes[1].pattern=/expensive",
					"limiter.routes[1].expensive=true")
			.run()) {
			assertThat(get(app, "/hello").statusCode()).isEqualTo(200);
			assertThat(get(app, "/expensive").statusCode()).isEqualTo(200);
			HttpResponse<String> refusal = get(app, "/hello");
			assertThat(refusal.statusCode()).isEqualTo(429);
			// both admissions reserved tokens (the expensive one its estimate of 1)
			await().atMost(Duration.ofSeconds(10))
				.until(() -> named("limiter settlement").size() == 2 && named("limiter lease release").size() == 1
						&& named("limiter decision").size() == 3);

			List<SimpleSpan> decisions = named("limiter decision");
			SimpleSpan settled = decisions.get(0);
			SimpleSpan leased = decisions.get(1);
			SimpleSpan refused = decisions.get(2);
			assertThat(refused.getTags()).containsEntry("limiter.outcome", "refused")
				.containsEntry("limiter.window", "minute")
				.containsEntry("limiter.store", "redis")
				.containsEntry("limiter.retry-after", refusal.headers().firstValue("Retry-After").orElseThrow());
			assertThat(refused.getEvents()).extracting((event) -> event.getValue())
				.singleElement()
				.asString()
				.contains("window=minute")
				.contains("retry-after=" + refusal.headers().firstValue("Retry-After").orElseThrow() + "s");
			for (SimpleSpan decision : decisions) {
				assertThat(ancestors(decision)).as("under the HTTP server's span")
					.anyMatch((name) -> name.startsWith("http get"));
				assertThat(named("limiter store"))
					.filteredOn((store) -> decision.getSpanId().equals(store.getParentId()))
					.as("the wait on Redis, a child of its decision")
					.singleElement()
					.satisfies((store) -> assertThat(store.getTraceId()).isEqualTo(decision.getTraceId()));
			}
			SimpleSpan settlement = named("limiter settlement").stream()
				.filter((span) -> settled.getParentId().equals(span.getParentId()))
				.findFirst()
				.orElseThrow();
			assertThat(settlement.getTraceId()).isEqualTo(settled.getTraceId());
			assertThat(settlement.getTags()).containsEntry("limiter.outcome", "settled");
			SimpleSpan release = named("limiter lease release").get(0);
			assertThat(release.getParentId()).isEqualTo(leased.getParentId());
			assertThat(release.getTraceId()).isEqualTo(leased.getTraceId()).isNotEqualTo(settled.getTraceId());
		}
	}

	private static List<SimpleSpan> named(String name) {
		return tracer.getSpans().stream().filter((span) -> name.equals(span.getName())).toList();
	}

	private static List<String> ancestors(SimpleSpan span) {
		List<String> names = new ArrayList<>();
		String parentId = span.getParentId();
		while (parentId != null && !parentId.isEmpty()) {
			String id = parentId;
			SimpleSpan parent = tracer.getSpans()
				.stream()
				.filter((each) -> id.equals(each.getSpanId()))
				.findFirst()
				.orElse(null);
			if (parent == null) {
				break;
			}
			assertThat(parent.getTraceId()).isEqualTo(span.getTraceId());
			names.add(parent.getName());
			parentId = parent.getParentId();
		}
		return names;
	}

	private HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws Exception {
		int port = ((ServletWebServerApplicationContext) app).getWebServer().getPort();
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("Authorization", "Bearer " + GuardTestApplication.GOOD_TOKEN)
			.timeout(Duration.ofSeconds(30))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	@Configuration(proxyBeanMethods = false)
	static class Tracing {

		/** Boot's tracing auto-configuration observes with it (its default handler). */
		@Bean
		SimpleTracer simpleTracer() {
			return tracer;
		}

	}

}
