package dev.limiter.reactive;

import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.RateLimitStores;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.guard.GuardEvents;
import dev.limiter.guard.GuardOutcomes;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.web.server.WebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReactiveAuthGuardFilter} and {@link ReactiveAuthenticationOutcomeFilter} on mock
 * exchanges, every filter run on Reactor's {@code parallel} threads under BlockHound: the
 * servlet guard's block, its 429 byte for byte, a proven credential passing its own
 * address's block, and a lookup that never starts for a blocked address.
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveAuthGuardFilterTests {

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

	private static final String GOOD = "Bearer good";

	/** Three failures in a minute block the address for ten minutes. */
	private final AuthGuard guard = new AuthGuard(RateLimitStores.inMemory(1_000),
			new AuthGuardPolicy(3, Duration.ofMinutes(1), Duration.ofMinutes(10), 5, Duration.ofSeconds(30)));

	private final AtomicInteger lookups = new AtomicInteger();

	private final AtomicInteger refusals = new AtomicInteger();

	private final AtomicInteger blocks = new AtomicInteger();

	private final ReactiveAuthGuardFilter filter = new ReactiveAuthGuardFilter(
			new GuardOutcomes(guard, Clock.fixed(NOW, ZoneOffset.UTC), new GuardEvents() {

				@Override
				public void refused(boolean blocked) {
					refusals.incrementAndGet();
				}

				@Override
				public void blocked() {
					blocks.incrementAndGet();
				}

			}, ReactiveAuthGuardFilter.class), ReactiveLimiterCors.NONE);

	private final ReactiveAuthenticationOutcomeFilter outcome = new ReactiveAuthenticationOutcomeFilter(false);

	/**
	 * Spring Security's chain as far as the guard sees it: a good credential
	 * authenticated (its {@code Authentication} in the Reactor context), anything else a
	 * 401 of the authentication's failure handler.
	 */
	private final WebFilterChain security = (exchange) -> {
		lookups.incrementAndGet();
		String authorization = exchange.getRequest().getHeaders().getFirst("Authorization");
		if (!GOOD.equals(authorization)) {
			exchange.getResponse().setStatusCode(HttpStatus.UNAUTHORIZED);
			return exchange.getResponse().setComplete();
		}
		return outcome.filter(exchange, (passed) -> {
			passed.getResponse().setStatusCode(HttpStatus.OK);
			return passed.getResponse().setComplete();
		})
			.contextWrite(ReactiveSecurityContextHolder
				.withAuthentication(new TestingAuthenticationToken("alice", "n/a", "ROLE_USER")));
	};

	@Test
	void filterWhenTheThresholdIsReachedShouldRefuseTheAddressWithTheGuardsProblem() {
		for (int i = 0; i < 3; i++) {
			assertThat(run(request("Bearer bad" + i, "192.0.2.1")).getResponse().getStatusCode())
				.isEqualTo(HttpStatus.UNAUTHORIZED);
		}

		MockServerWebExchange refused = run(request(GOOD, "192.0.2.1"));

		assertThat(refused.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(refused.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("600");
		assertThat(refused.getResponse().getHeaders().getFirst("Cache-Control")).isEqualTo("no-store");
		assertThat(refused.getResponse().getHeaders().getFirst("CDN-Cache-Control")).isEqualTo("no-store");
		assertThat(refused.getResponse().getHeaders().getFirst("Content-Type"))
			.isEqualTo("application/problem+json;charset=UTF-8");
		assertThat(refused.getResponse().getBodyAsString().block()).isEqualTo("{\"type\":\"about:blank\","
				+ "\"title\":\"Too Many Requests\",\"status\":429,\"detail\":\"Too many failed authentications from this "
				+ "address; retry after 600 seconds.\",\"error\":\"auth_rate_limit_exceeded\",\"message\":\"Too many "
				+ "failed authentications from this address; retry after 600 seconds.\",\"retryAfter\":600,"
				+ "\"bound\":\"block\",\"resetTime\":\"2030-01-01T00:10:00Z\"}");
		assertThat(lookups).hasValue(3);
		assertThat(blocks).hasValue(1);
		assertThat(refusals).hasValue(1);
	}

	@Test
	void filterWhenAnotherAddressFailsShouldLeaveThisOneAlone() {
		for (int i = 0; i < 3; i++) {
			run(request("Bearer bad" + i, "192.0.2.1"));
		}

		assertThat(run(request(GOOD, "192.0.2.2")).getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
	}

	@Test
	void filterWhenACredentialWasProvenBeforeTheBlockShouldLetItThrough() {
		assertThat(run(request(GOOD, "192.0.2.1")).getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		for (int i = 0; i < 3; i++) {
			run(request("Bearer bad" + i, "192.0.2.1"));
		}

		assertThat(run(request(GOOD, "192.0.2.1")).getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(run(request("Bearer other", "192.0.2.1")).getResponse().getStatusCode())
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
	}

	@Test
	void filterWhenTheLimiterRefusesAnAuthenticatedRequestShouldProveNothing() {
		ReactiveAuthenticationOutcomeFilter limiterFollows = new ReactiveAuthenticationOutcomeFilter(true);
		WebFilterChain refusedByTheLimiter = (exchange) -> limiterFollows.filter(exchange, (passed) -> {
			ReactiveAuthGuardFilter.limiterDecided(passed, false);
			passed.getResponse().setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
			return passed.getResponse().setComplete();
		})
			.contextWrite(ReactiveSecurityContextHolder
				.withAuthentication(new TestingAuthenticationToken("alice", "n/a", "ROLE_USER")));
		run(request(GOOD, "192.0.2.1"), refusedByTheLimiter);
		for (int i = 0; i < 3; i++) {
			run(request("Bearer bad" + i, "192.0.2.1"));
		}

		assertThat(run(request(GOOD, "192.0.2.1")).getResponse().getStatusCode())
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
	}

	@Test
	void filterWithoutAnAuthorizationHeaderShouldNotBeGuarded() {
		for (int i = 0; i < 3; i++) {
			run(request("Bearer bad" + i, "192.0.2.1"));
		}

		MockServerWebExchange anonymous = MockServerWebExchange
			.from(MockServerHttpRequest.get("/hello").remoteAddress(new InetSocketAddress("192.0.2.1", 4000)));
		run(anonymous, (exchange) -> {
			exchange.getResponse().setStatusCode(HttpStatus.OK);
			return exchange.getResponse().setComplete();
		});

		assertThat(anonymous.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
	}

	@Test
	void filterWhenTheChainFailsShouldHandTheReservationBackUncounted() {
		WebFilterChain failing = (exchange) -> Mono.error(new IllegalStateException("lookup failed"));
		for (int i = 0; i < 5; i++) {
			MockServerWebExchange exchange = request("Bearer bad" + i, "192.0.2.1");
			Long pendingWhenHeard = filter.filter(exchange, failing)
				.then(Mono.just(-1L))
				.onErrorResume((ex) -> Mono
					.fromCallable(() -> guard.state(AuthGuard.addressKey("192.0.2.1"), NOW.toEpochMilli()).pending()))
				.subscribeOn(Schedulers.parallel())
				.block(Duration.ofSeconds(10));
			assertThat(pendingWhenHeard).as("the reservation is back before the failure is passed on").isZero();
		}

		assertThat(guard.state(AuthGuard.addressKey("192.0.2.1"), NOW.toEpochMilli())).satisfies(
				(state) -> assertThat(state.failures()).isZero(), (state) -> assertThat(state.pending()).isZero());
		assertThat(run(request(GOOD, "192.0.2.1")).getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
	}

	private MockServerWebExchange run(MockServerWebExchange exchange) {
		return run(exchange, security);
	}

	private MockServerWebExchange run(MockServerWebExchange exchange, WebFilterChain chain) {
		filter.filter(exchange, chain).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10));
		return exchange;
	}

	private static MockServerWebExchange request(String authorization, String address) {
		return MockServerWebExchange.from(MockServerHttpRequest.get("/hello")
			.header("Authorization", authorization)
			.remoteAddress(new InetSocketAddress(address, 4000)));
	}

}
