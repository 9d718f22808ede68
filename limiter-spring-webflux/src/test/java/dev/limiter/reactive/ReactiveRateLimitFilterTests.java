package dev.limiter.reactive;

import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Settlement;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import dev.limiter.core.contract.DownRateLimitStore;
import dev.limiter.decision.CallerKeys;
import dev.limiter.decision.DecisionResponses;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.routes.PropertiesRouteResolver.RouteRule;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.web.server.WebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReactiveRateLimitFilter} on mock exchanges (no server): the decision, the
 * contract's headers and body, shadow mode, exemptions, and that what an admitted request
 * holds (its lease, its reservation) goes back exactly once however its response ends:
 * completed, failed, or cancelled by a client that went away.
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveRateLimitFilterTests {

	// 2030-01-01T00:00:18Z: 42 s left in the minute
	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	private static final Budget STANDARD = Budget.builder("standard")
		.window("minute", 2, Duration.ofMinutes(1))
		.concurrency(1, Duration.ofSeconds(30))
		.build();

	private static final Budget ANONYMOUS = Budget.builder("anonymous")
		.window("minute", 1, Duration.ofMinutes(1))
		.build();

	private static final Budget TOKENS = Budget.builder("tokens")
		.window("minute", 60, Duration.ofMinutes(1))
		.window(Window.of("tokens", 1_000, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	private static final WebFilterChain OK = (exchange) -> {
		exchange.getResponse().setStatusCode(HttpStatus.OK);
		return exchange.getResponse().setComplete();
	};

	private final RecordingStore store = new RecordingStore(RateLimitStores.inMemory(1_000));

	private BudgetOptions options = BudgetOptions.DEFAULTS;

	private List<RouteRule> routes = List.of();

	private List<ReactiveBudgetSelector> selectors = List.of();

	@Test
	void filterWhenAnonymousBudgetIsSpentShouldAnswer429WithTheContractsHeadersAndBody() {
		ReactiveRateLimitFilter filter = filter();
		MockServerWebExchange first = anonymous("/links");
		filter.filter(first, OK).block();
		MockServerWebExchange second = anonymous("/links");
		filter.filter(second, OK).block();

		assertThat(first.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(first.getResponse().getHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(second.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(second.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("42");
		assertThat(second.getResponse().getHeaders().getFirst("Cache-Control")).isEqualTo("no-store");
		assertThat(second.getResponse().getHeaders().getFirst("CDN-Cache-Control")).isEqualTo("no-store");
		assertThat(second.getResponse().getHeaders().getFirst("Content-Type"))
			.isEqualTo("application/problem+json;charset=UTF-8");
		assertThat(second.getResponse().getHeaders().getFirst("RateLimit-Policy")).isEqualTo("\"minute\";q=1;w=60");
		assertThat(second.getResponse().getHeaders().getFirst("RateLimit")).isEqualTo("\"minute\";r=0;t=42");
		assertThat(second.getResponse().getBodyAsString().block()).isEqualTo("{\"type\":\""
				+ DecisionResponses.QUOTA_EXCEEDED_TYPE + "\",\"title\":\"Too Many Requests\",\"status\":429,"
				+ "\"detail\":\"Budget 'anonymous' allows 1 requests per minute; retry after 42 seconds.\","
				+ "\"error\":\"rate_limit_exceeded\",\"message\":\"Budget 'anonymous' allows 1 requests per minute; "
				+ "retry after 42 seconds.\",\"retryAfter\":42,\"limit\":1,\"remaining\":0,"
				+ "\"resetTime\":\"2030-01-01T00:01:00Z\",\"budget\":\"anonymous\",\"bound\":\"minute\","
				+ "\"violated-policies\":[\"minute\"]}");
		assertThat(second.getResponse().getHeaders().getContentLength())
			.isEqualTo(second.getResponse().getBodyAsString().block().getBytes().length);
	}

	@Test
	void filterWhenTwoAnonymousAddressesShouldCountEachApart() {
		ReactiveRateLimitFilter filter = filter();
		filter.filter(anonymous("/links", "192.0.2.1"), OK).block();
		MockServerWebExchange other = anonymous("/links", "192.0.2.2");
		filter.filter(other, OK).block();

		assertThat(other.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(store.keys).containsExactly("a:192.0.2.1", "a:192.0.2.2");
	}

	@Test
	void filterWhenAuthenticationIsInTheReactorContextShouldKeyItAsTheServletFilterDoes() {
		ReactiveRateLimitFilter filter = filter();
		TestingAuthenticationToken alice = new TestingAuthenticationToken("alice", "n/a", "ROLE_USER");
		MockServerWebExchange exchange = anonymous("/links");
		filter.filter(exchange, OK).contextWrite(ReactiveSecurityContextHolder.withAuthentication(alice)).block();

		assertThat(exchange.getResponse().getHeaders().getFirst("X-RateLimit-Limit")).isEqualTo("2");
		assertThat(store.keys).containsExactly(CallerKeys.principalKey(alice).value());
	}

	@Test
	void filterWhenRouteIsExemptShouldNotAskTheStore() {
		routes = List.of(new RouteRule("/health/**", List.of(), new RoutePolicy(null, null, false, true, "probe")));
		ReactiveRateLimitFilter filter = filter();
		MockServerWebExchange exchange = anonymous("/health/live");
		filter.filter(exchange, OK).block();

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(exchange.getResponse().getHeaders().getFirst("X-RateLimit-Limit")).isNull();
		assertThat(store.keys).isEmpty();
	}

	@Test
	void filterWhenBudgetIsInShadowModeShouldLetTheRefusalThroughAndSaySo() {
		options = new BudgetOptions(false, Map.of(), Map.of("anonymous", true));
		ReactiveRateLimitFilter filter = filter();
		filter.filter(anonymous("/links"), OK).block();
		MockServerWebExchange refused = anonymous("/links");
		filter.filter(refused, OK).block();

		assertThat(refused.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(refused.getResponse().getHeaders().getFirst("X-RateLimit-Shadow")).isEqualTo("refused");
	}

	@Test
	void countersWhenResponseIsPublicShouldBeOmitted() {
		ReactiveRateLimitFilter filter = filter();
		MockServerWebExchange exchange = anonymous("/links");
		filter.filter(exchange, (e) -> {
			e.getResponse().getHeaders().set("Cache-Control", "public, max-age=60");
			return e.getResponse().setComplete();
		}).block();

		assertThat(exchange.getResponse().getHeaders().getFirst("X-RateLimit-Limit")).isNull();
	}

	@Test
	void leaseWhenResponseCompletesShouldBeReleasedOnce() {
		expensiveFilter().filter(authenticated(), OK).contextWrite(alice()).block();

		assertThat(store.releases).hasValue(1);
	}

	@Test
	void leaseWhenResponseCompletesShouldBeReleasedBeforeTheCompletionIsPassedOn() {
		Integer releasedWhenHeard = expensiveFilter().filter(authenticated(), OK)
			.contextWrite(alice())
			.then(Mono.fromCallable(store.releases::get))
			.block();

		assertThat(releasedWhenHeard).as("the caller hears of the end only once the slot is free").isEqualTo(1);
	}

	@Test
	void leaseWhenHandlerFailsShouldBeReleasedOnce() {
		StepVerifier
			.create(expensiveFilter().filter(authenticated(), (e) -> Mono.error(new IllegalStateException("boom")))
				.contextWrite(alice()))
			.verifyError(IllegalStateException.class);

		assertThat(store.releases).hasValue(1);
	}

	@Test
	void leaseWhenClientCancelsMidStreamShouldBeReleasedOnceAndFreeTheSlot() {
		ReactiveRateLimitFilter filter = expensiveFilter();
		Disposable inFlight = filter.filter(authenticated(), (e) -> Mono.never()).contextWrite(alice()).subscribe();
		assertThat(store.keys).as("decided and admitted, the response still streaming").hasSize(1);
		assertThat(store.releases).hasValue(0);
		inFlight.dispose();
		inFlight.dispose();

		assertThat(store.releases).hasValue(1);
		MockServerWebExchange next = authenticated();
		filter.filter(next, OK).contextWrite(alice()).block();
		assertThat(next.getResponse().getStatusCode()).as("the concurrency slot is free again")
			.isEqualTo(HttpStatus.OK);
		assertThat(store.releases).hasValue(2);
	}

	@Test
	void leaseWhileSecondRequestRunsShouldRefuseItOnConcurrency() {
		ReactiveRateLimitFilter filter = expensiveFilter();
		MockServerWebExchange second = authenticated();
		filter.filter(authenticated(), (e) -> filter.filter(second, OK).contextWrite(alice()))
			.contextWrite(alice())
			.block();

		assertThat(second.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(second.getResponse().getHeaders().getFirst("RateLimit")).isEqualTo("\"concurrency\";r=0;t=30");
	}

	@Test
	void settlementWhenClientCancelsMidStreamShouldBeSentOnceWithWhatWasReported() {
		routes = List.of(new RouteRule("/chat", List.of(),
				new RoutePolicy(null, "tokens", false, false, null, Map.of("tokens", 500L))));
		ReactiveRateLimitFilter filter = filter();
		MockServerWebExchange exchange = authenticated("/chat");
		Disposable inFlight = filter.filter(exchange, (e) -> {
			ReactiveRateLimitUsage.report(e, "tokens", 120);
			return Mono.never();
		}).contextWrite(alice()).subscribe();
		assertThat(store.settlements).as("nothing settled while the response streams").isEmpty();
		inFlight.dispose();
		inFlight.dispose();

		assertThat(store.settlements).hasSize(1);
		assertThat(store.peek(TOKENS, store.keys.get(0), NOW.toEpochMilli()).bounds().get(1).remaining())
			.as("the 500 reserved, settled to the 120 reported")
			.isEqualTo(880);
	}

	@Test
	void settlementWhenResponseCompletesShouldBeSentOnce() {
		routes = List.of(new RouteRule("/chat", List.of(),
				new RoutePolicy(null, "tokens", false, false, null, Map.of("tokens", 500L))));
		filter().filter(authenticated("/chat"), (e) -> {
			ReactiveRateLimitUsage.report(e, "tokens", 700);
			return OK.filter(e);
		}).contextWrite(alice()).block();

		assertThat(store.settlements).hasSize(1);
		assertThat(store.peek(TOKENS, store.keys.get(0), NOW.toEpochMilli()).bounds().get(1).remaining())
			.isEqualTo(300);
	}

	@Test
	void budgetSelectorWhenItNamesABudgetShouldCountTheCallerThere() {
		selectors = List.of((exchange, principal, routeBudget) -> Optional.of("tokens"),
				(exchange, principal, routeBudget) -> Optional.of("anonymous"));
		MockServerWebExchange exchange = authenticated("/links");
		filter().filter(exchange, OK).contextWrite(alice()).block();

		assertThat(exchange.getResponse().getHeaders().getFirst("X-RateLimit-Limit")).isEqualTo("60");
	}

	@Test
	void budgetSelectorWhenItNamesAnUnknownBudgetShouldKeepTheRoutesBudget() {
		selectors = List.of((exchange, principal, routeBudget) -> Optional.of("platinum"));
		MockServerWebExchange exchange = authenticated("/links");
		filter().filter(exchange, OK).contextWrite(alice()).block();

		assertThat(exchange.getResponse().getHeaders().getFirst("X-RateLimit-Limit")).isEqualTo("2");
	}

	@Test
	void filterWhenStoreFailsPastEveryDecoratorShouldAdmitUncountedAndFlagItDegraded() {
		ReactiveRateLimitFilter filter = filter(new DownRateLimitStore("down"));
		MockServerWebExchange exchange = anonymous("/links");
		filter.filter(exchange, OK).block();

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(exchange.getResponse().getHeaders().getFirst("X-RateLimit-Degraded")).isEqualTo("true");
	}

	private ReactiveRateLimitFilter expensiveFilter() {
		routes = List.of(new RouteRule("/export", List.of(), new RoutePolicy(null, null, true, false, null)));
		return filter();
	}

	private ReactiveRateLimitFilter filter() {
		return filter(store);
	}

	private ReactiveRateLimitFilter filter(RateLimitStore store) {
		BudgetRegistry budgets = new BudgetRegistry(List.of(STANDARD, ANONYMOUS, TOKENS), "standard", "anonymous");
		PropertiesRouteResolver properties = new PropertiesRouteResolver(routes);
		RateLimitRules rules = new RateLimitRules(budgets, options, properties);
		ReactiveRouteResolver routeResolver = (exchange) -> Mono.justOrEmpty(properties.matchPath(
				exchange.getRequest().getPath().pathWithinApplication(), exchange.getRequest().getMethod().name()));
		return ReactiveRateLimitFilter
			.builder(() -> rules, store, new PrincipalKeyResolver(SecurityPrincipals::authenticated, List.of()),
					routeResolver)
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.budgetSelectors(selectors)
			.build();
	}

	private static Context alice() {
		return ReactiveSecurityContextHolder
			.withAuthentication(new TestingAuthenticationToken("alice", "n/a", "ROLE_USER"));
	}

	private static MockServerWebExchange anonymous(String path) {
		return anonymous(path, "192.0.2.1");
	}

	private static MockServerWebExchange anonymous(String path, String address) {
		return MockServerWebExchange
			.from(MockServerHttpRequest.get(path).remoteAddress(new InetSocketAddress(address, 40000)));
	}

	private static MockServerWebExchange authenticated() {
		return authenticated("/export");
	}

	private static MockServerWebExchange authenticated(String path) {
		return anonymous(path);
	}

	/** The in-memory store, recording keys, releases and settlements. */
	static final class RecordingStore extends ForwardingRateLimitStore {

		final List<String> keys = new CopyOnWriteArrayList<>();

		final AtomicInteger releases = new AtomicInteger();

		final List<Settlement> settlements = new CopyOnWriteArrayList<>();

		private final RateLimitStore delegate;

		RecordingStore(RateLimitStore delegate) {
			this.delegate = delegate;
		}

		@Override
		protected RateLimitStore delegate() {
			return delegate;
		}

		// the reactive filter decides through the calls that do not block, which a
		// forwarding store hands to its delegate as themselves
		@Override
		public CompletionStage<Decision> takeAsync(Budget budget, String key, long cost, boolean expensive,
				long nowMillis) {
			keys.add(key);
			return super.takeAsync(budget, key, cost, expensive, nowMillis);
		}

		@Override
		public CompletionStage<Decision> reserveAsync(Budget budget, String key, long[] amounts, boolean expensive,
				long nowMillis) {
			keys.add(key);
			return super.reserveAsync(budget, key, amounts, expensive, nowMillis);
		}

		@Override
		public void release(Lease lease, long nowMillis) {
			releases.incrementAndGet();
			super.release(lease, nowMillis);
		}

		@Override
		public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
			settlements.add(settlement);
			return super.settle(settlement, nowMillis);
		}

	}

}
