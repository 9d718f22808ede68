package dev.limiter.servlet;

import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Settlement;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.spring.BudgetDefinition;
import dev.limiter.spring.BudgetDefinitionSelector;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RateLimitUsage;
import dev.limiter.spring.RoutePolicy;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route estimating 100 tokens, counted against a budget chosen at run time whose tokens
 * window holds 50 (a {@link BudgetDefinitionSelector}'s or a {@link BudgetSelector}'s,
 * which no start-up check saw): the reservation is capped at the 50 the window holds, the
 * request is admitted and counted, the actual amount it reports is settled against what
 * was reserved, the next request is refused naming the window, and one WARN names the
 * route and the window. Never admitted uncounted, never logged as a store outage (ADR
 * 0012). Every store runs it: memory here, Redis in its subclasses.
 */
@ExtendWith(OutputCaptureExtension.class)
class RateLimitFilterRunTimeEstimateTests {

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	/** The route's own budget, which the estimate of 100 fits. */
	private static final Budget COMPLETION = Budget.builder("completion")
		.window("minute", 60, Duration.ofMinutes(1))
		.window(Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	/** A configured budget a selector may choose: 50 tokens a minute. */
	private static final Budget SMALL = Budget.builder("small")
		.window("minute", 60, Duration.ofMinutes(1))
		.window(Window.of("tokens", 50, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	private SettledStore store;

	private String caller;

	/** The store under test; the Redis subclasses give theirs. */
	protected RateLimitStore createStore() {
		return RateLimitStores.inMemory(100);
	}

	@BeforeEach
	void setUp() {
		store = new SettledStore(createStore());
		caller = "t:k-" + System.nanoTime();
	}

	@Test
	void definedBudgetWhenItsWindowHoldsLessThanTheEstimateShouldReserveWhatItHoldsAndChargeTheActual(
			CapturedOutput output) throws Exception {
		BudgetDefinitionSelector defines = new BudgetDefinitionSelector() {

			@Override
			public Optional<String> select(HttpServletRequest request, Principal principal, String routeBudget) {
				return Optional.of("plan-small");
			}

			@Override
			public BudgetDefinition define(String identity) {
				return BudgetDefinition.builder("plan-small")
					.window("minute", 60, Duration.ofMinutes(1))
					.window("tokens", 50, Duration.ofMinutes(1), "tokens")
					.build();
			}

		};
		RateLimitFilter filter = filter(List.of(), ServletBudgetSelectors.definitions(List.of(defines), 10));

		assertCappedThenCharged(filter, output, "plan-small");
	}

	@Test
	void selectedBudgetWhenItsWindowHoldsLessThanTheEstimateShouldReserveWhatItHoldsAndChargeTheActual(
			CapturedOutput output) throws Exception {
		BudgetSelector selects = (request, principal, routeBudget) -> Optional.of("small");
		RateLimitFilter filter = filter(List.of(selects), BudgetDefinitions.none());

		assertCappedThenCharged(filter, output, "small");
	}

	private void assertCappedThenCharged(RateLimitFilter filter, CapturedOutput output, String budget)
			throws Exception {
		MockHttpServletResponse first = send(filter, 20);

		assertThat(first.getStatus()).isEqualTo(200);
		assertThat(output).as("bad configuration is not a store outage").doesNotContain("admitting requests uncounted");
		assertThat(store.reserved).as("reserved, capped at the window's 50").containsExactly(budget + " [1, 50]");
		store.awaitSettlements();
		// 20 used, 50 reserved: the settlement refunded 30
		BoundVerdict tokens = store.peek(store.budgets.get(0), store.keys.get(0), NOW.toEpochMilli()).bounds().get(1);
		assertThat(tokens.remaining()).isEqualTo(30);

		// the next reservation takes the window's 50 again: 30 left is not enough
		MockHttpServletResponse second = send(filter, 10);

		assertThat(second.getStatus()).isEqualTo(429);
		assertThat(second.getHeader("Retry-After")).isEqualTo("42");
		assertThat(second.getContentAsString()).contains("\"bound\":\"tokens\"").contains("\"unit\":\"tokens\"");
		assertThat(output).doesNotContain("admitting requests uncounted");
		String warning = "Route '/complete' estimates 100 tokens but window 'tokens' of budget '" + budget
				+ "' (chosen for the request, not checked at start-up) holds 50; reserving 50";
		assertThat(output.toString().split(Pattern.quote(warning), -1)).as("warned once").hasSize(2);
	}

	private MockHttpServletResponse send(RateLimitFilter filter, long tokens) throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(new MockHttpServletRequest("POST", "/complete"), response,
				(req, res) -> RateLimitUsage.report(req, "tokens", tokens));
		return response;
	}

	private RateLimitFilter filter(List<BudgetSelector> selectors, BudgetDefinitions<HttpServletRequest> definitions) {
		BudgetRegistry budgets = new BudgetRegistry(List.of(COMPLETION, SMALL), "completion", "completion");
		RateLimitRules rules = new RateLimitRules(budgets, BudgetOptions.DEFAULTS,
				(request) -> new RoutePolicy("/complete", "completion", false, false, null, Map.of("tokens", 100L)));
		return RateLimitFilter
			.builder(rules, store, (request) -> CallerKey.authenticated(caller, () -> "k"),
					new DefaultRateLimitResponseWriter(true, false))
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.budgetSelectors(selectors)
			.definitions(definitions)
			.build();
	}

	/**
	 * The store under test, recording what was reserved and the settlements sent, so the
	 * test reads counts back only once they are applied.
	 */
	private static final class SettledStore extends ForwardingRateLimitStore {

		private final RateLimitStore delegate;

		final List<String> reserved = new CopyOnWriteArrayList<>();

		final List<Budget> budgets = new CopyOnWriteArrayList<>();

		final List<String> keys = new CopyOnWriteArrayList<>();

		private final List<CompletableFuture<List<ThresholdCrossing>>> settlements = new CopyOnWriteArrayList<>();

		SettledStore(RateLimitStore delegate) {
			this.delegate = delegate;
		}

		@Override
		protected RateLimitStore delegate() {
			return delegate;
		}

		@Override
		public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
			reserved.add(budget.name() + " " + Arrays.toString(amounts));
			budgets.add(budget);
			keys.add(key);
			return super.reserve(budget, key, amounts, expensive, nowMillis);
		}

		@Override
		public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
			CompletableFuture<List<ThresholdCrossing>> applied = super.settle(settlement, nowMillis)
				.toCompletableFuture();
			settlements.add(applied);
			return applied;
		}

		void awaitSettlements() throws Exception {
			for (CompletableFuture<List<ThresholdCrossing>> settlement : settlements) {
				settlement.get(30, TimeUnit.SECONDS);
			}
		}

	}

}
