package dev.limiter.reactive;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.core.Budget;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RateLimitStores;
import dev.limiter.decision.DecisionResponses;
import dev.limiter.quota.QuotaReport;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.WebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReactiveQuotaEndpointFilter} on mock exchanges: the caller's own counters as the
 * servlet endpoint answers them ({@code no-store} JSON), a 401 for an anonymous caller,
 * its own bound per caller, a 503 when the store cannot read, other requests passed on;
 * and a store read that waits never waits on a non-blocking thread.
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveQuotaEndpointFilterTests {

	// 2030-01-01T00:00:18Z: 42 s left in the minute
	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	private static final Budget STANDARD = Budget.builder("standard")
		.window("minute", 10, Duration.ofMinutes(1))
		.build();

	private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

	private final RateLimitStore memory = RateLimitStores.inMemory(100);

	private final AtomicBoolean chainCalled = new AtomicBoolean();

	private final WebFilterChain chain = (exchange) -> {
		chainCalled.set(true);
		return Mono.empty();
	};

	@Test
	void quotaWhenReadShouldAnswerTheCallersCountersAsNoStoreJsonWithoutSpendingThem() {
		memory.take(STANDARD, "p:alice", 1, false, NOW.toEpochMilli());
		MockServerWebExchange exchange = get("/rate-limit");

		filter(memory, alice(), 60).filter(exchange, chain).block(Duration.ofSeconds(5));

		assertThat(exchange.getResponse().getStatusCode().value()).isEqualTo(200);
		assertThat(exchange.getResponse().getHeaders().getFirst("Cache-Control")).isEqualTo("no-store");
		assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/json");
		assertThat(exchange.getResponse().getBodyAsString().block())
			.isEqualTo("{\"at\":\"2030-01-01T00:00:18Z\",\"budgets\":[{\"budget\":\"standard\",\"bounds\":[{\"name\":"
					+ "\"minute\",\"unit\":\"requests\",\"limit\":10,\"remaining\":9,\"reset\":\"2030-01-01T00:01:00Z\","
					+ "\"algorithm\":\"fixed-window\",\"concurrency\":false}]}]}");
		assertThat(memory.peek(STANDARD, "p:alice", NOW.toEpochMilli()).bounds().get(0).remaining()).isEqualTo(9);
		assertThat(chainCalled).isFalse();
	}

	@Test
	void quotaWhenAnonymousShouldAnswer401() {
		MockServerWebExchange exchange = get("/rate-limit");

		filter(memory, (ex) -> Mono.just(CallerKey.anonymous("a:10.0.0.1")), 60).filter(exchange, chain)
			.block(Duration.ofSeconds(5));

		assertThat(exchange.getResponse().getStatusCode().value()).isEqualTo(401);
		assertThat(exchange.getResponse().getHeaders().getFirst("Content-Type"))
			.isEqualTo("application/problem+json;charset=UTF-8");
		assertThat(exchange.getResponse().getHeaders().getFirst("Cache-Control")).isEqualTo("no-store");
	}

	@Test
	void quotaWhenReadMoreThanItsLimitShouldBeRefusedWithTheContractsRefusal() {
		ReactiveQuotaEndpointFilter filter = filter(memory, alice(), 2);
		for (int i = 0; i < 2; i++) {
			MockServerWebExchange admitted = get("/rate-limit");
			filter.filter(admitted, chain).block(Duration.ofSeconds(5));
			assertThat(admitted.getResponse().getStatusCode().value()).isEqualTo(200);
		}
		MockServerWebExchange refused = get("/rate-limit");

		filter.filter(refused, chain).block(Duration.ofSeconds(5));

		assertThat(refused.getResponse().getStatusCode().value()).isEqualTo(429);
		assertThat(refused.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("42");
		assertThat(refused.getResponse().getBodyAsString().block()).contains("\"budget\":\"quota-endpoint\"");
	}

	@Test
	void quotaWhenTheStoreCannotReadCountersShouldAnswer503WithAProblemBody() {
		RateLimitStore unreadable = new ForwardingRateLimitStore() {

			@Override
			protected RateLimitStore delegate() {
				return memory;
			}

			@Override
			public KeyState peek(Budget budget, String key, long nowMillis) {
				throw new RateLimitStoreException("connection reset");
			}

		};
		MockServerWebExchange exchange = get("/rate-limit");

		filter(unreadable, alice(), 60).filter(exchange, chain).block(Duration.ofSeconds(5));

		assertThat(exchange.getResponse().getStatusCode().value()).isEqualTo(503);
		assertThat(exchange.getResponse().getHeaders().getFirst("Content-Type"))
			.isEqualTo("application/problem+json;charset=UTF-8");
		assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isNotNull();
	}

	@Test
	void otherRequestsShouldBePassedOn() {
		ReactiveQuotaEndpointFilter filter = filter(memory, alice(), 60);

		filter.filter(get("/rate-limit/other"), chain).block(Duration.ofSeconds(5));
		assertThat(chainCalled).isTrue();
		chainCalled.set(false);
		filter.filter(MockServerWebExchange.from(MockServerHttpRequest.post("/rate-limit")), chain)
			.block(Duration.ofSeconds(5));
		assertThat(chainCalled).isTrue();
	}

	@Test
	void quotaWhenTheStoreReadBlocksShouldNotReadOnANonBlockingThread() {
		RateLimitStore blockingPeek = new ForwardingRateLimitStore() {

			@Override
			protected RateLimitStore delegate() {
				return memory;
			}

			@Override
			public KeyState peek(Budget budget, String key, long nowMillis) {
				try {
					Thread.sleep(1); // a store call that waits for its answer
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return super.peek(budget, key, nowMillis);
			}

		};
		MockServerWebExchange exchange = get("/rate-limit");
		ReactiveQuotaEndpointFilter filter = filter(blockingPeek, alice(), 60);

		// subscribed on Reactor's parallel threads, as on an event loop: a read made
		// there fails
		Mono.defer(() -> filter.filter(exchange, chain))
			.subscribeOn(Schedulers.parallel())
			.block(Duration.ofSeconds(5));

		assertThat(exchange.getResponse().getStatusCode().value()).isEqualTo(200);
	}

	private ReactiveQuotaEndpointFilter filter(RateLimitStore store, ReactiveKeyResolver keys, int perMinute) {
		QuotaReport report = new QuotaReport(
				() -> new RateLimitRules(new BudgetRegistry(List.of(STANDARD), "standard", "standard"),
						new BudgetOptions(false, Map.of(), Map.of()), new PropertiesRouteResolver(List.of())),
				store, () -> null, clock);
		return new ReactiveQuotaEndpointFilter("/rate-limit", report, keys, store, new DecisionResponses(true, true),
				clock, perMinute, Schedulers.boundedElastic());
	}

	private static ReactiveKeyResolver alice() {
		return (exchange) -> Mono.just(CallerKey.authenticated("p:alice", () -> "alice"));
	}

	private static MockServerWebExchange get(String path) {
		return MockServerWebExchange.from(MockServerHttpRequest.get(path));
	}

}
