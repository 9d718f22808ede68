package dev.limiter.reactive;

import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.RateLimitStores;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * With BlockHound installed, the reactive filter's decision, refusal and admission on the
 * in-memory store make no blocking call on a non-blocking thread; a handler that does
 * block is caught, which proves BlockHound is active in this JVM.
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveRateLimitFilterBlockHoundTests {

	private static final Budget ANONYMOUS = Budget.builder("anonymous")
		.window("minute", 1, Duration.ofMinutes(1))
		.build();

	private static final Budget STANDARD = Budget.builder("standard")
		.window("minute", 10, Duration.ofMinutes(1))
		.build();

	@BeforeAll
	static void loadTheClassesOfADecision() {
		// the classes an admission and a refusal load, loaded here on the test's own
		// thread: reading a class file is a blocking call BlockHound would report on the
		// first request made from a non-blocking thread
		ReactiveRateLimitFilter warmUp = filter();
		warmUp.filter(exchange(), (e) -> e.getResponse().setComplete()).block();
		warmUp.filter(exchange(), (e) -> e.getResponse().setComplete()).block();
	}

	@Test
	void filterWhenRunOnANonBlockingThreadShouldNotBlock() {
		ReactiveRateLimitFilter filter = filter();
		MockServerWebExchange admitted = exchange();
		MockServerWebExchange refused = exchange();

		Mono.defer(() -> filter.filter(admitted, (e) -> e.getResponse().setComplete()))
			.then(Mono.defer(() -> filter.filter(refused, (e) -> e.getResponse().setComplete())))
			.subscribeOn(Schedulers.parallel())
			.block(Duration.ofSeconds(10));

		assertThat(admitted.getResponse().getHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(refused.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
	}

	@Test
	void handlerWhenItBlocksOnANonBlockingThreadShouldBeCaught() {
		ReactiveRateLimitFilter filter = filter();
		MockServerWebExchange exchange = exchange();

		assertThatException().isThrownBy(() -> Mono.defer(() -> filter.filter(exchange, (e) -> {
			try {
				Thread.sleep(1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return e.getResponse().setComplete();
		})).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10))).withMessageContaining("Blocking call");
	}

	private static ReactiveRateLimitFilter filter() {
		PropertiesRouteResolver routes = new PropertiesRouteResolver(List.of());
		RateLimitRules rules = new RateLimitRules(
				new BudgetRegistry(List.of(STANDARD, ANONYMOUS), "standard", "anonymous"), BudgetOptions.DEFAULTS,
				routes);
		return ReactiveRateLimitFilter
			.builder(() -> rules, RateLimitStores.inMemory(1_000),
					new PrincipalKeyResolver((exchange) -> Mono.empty(), List.of()), (exchange) -> Mono.empty())
			// mid-minute, whatever the wall clock says: the admission and the refusal
			// fall
			// in one window
			.clock(Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC))
			.build();
	}

	private static MockServerWebExchange exchange() {
		return MockServerWebExchange
			.from(MockServerHttpRequest.get("/links").remoteAddress(new InetSocketAddress("192.0.2.1", 40000)));
	}

}
