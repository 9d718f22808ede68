package dev.limiter.quota;

import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.decision.CallerKeys;
import dev.limiter.decision.RouteScopedKeys;
import dev.limiter.quota.QuotaReport.BudgetQuota;
import dev.limiter.quota.QuotaReport.Quota;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteSource;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetScope;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A caller's own quota is read under the keys the limiter counts it by: the default
 * budget by the caller's key, a route-scoped budget per route pattern of the inventory;
 * reading spends nothing and never shows another caller's counters.
 */
class QuotaReportTests {

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	private final Budget standard = Budget.builder("standard").window("minute", 10, Duration.ofMinutes(1)).build();

	private final Budget search = Budget.builder("search").window("minute", 5, Duration.ofMinutes(1)).build();

	private final BudgetOptions options = new BudgetOptions(false, Map.of("search", BudgetScope.ROUTE), Map.of());

	private final RateLimitStore store = RateLimitStores.inMemory(100);

	private final RouteInventory inventory = new RouteInventory(List.of(
			new RouteInventory.Entry(List.of("GET"), "/search/{q}", "SearchController#search", "search", false, false,
					null, RouteSource.YAML_RULE),
			new RouteInventory.Entry(List.of("GET"), "/find", "SearchController#find", "search", false, false, null,
					RouteSource.YAML_RULE),
			new RouteInventory.Entry(List.of("GET"), "/health", "Health#health", null, false, true, "probes",
					RouteSource.YAML_RULE)),
			List.of());

	private final QuotaReport report = new QuotaReport(
			() -> new RateLimitRules(new BudgetRegistry(List.of(standard, search), "standard", "standard"), options,
					(request) -> RoutePolicy.DEFAULT),
			store, () -> inventory, Clock.fixed(NOW, ZoneOffset.UTC));

	private final CallerKey alice = CallerKeys.principalKey(principal("alice"));

	private final CallerKey bob = CallerKeys.principalKey(principal("bob"));

	@Test
	void reportWhenARouteScopedBudgetWasSpentOnOneRouteShouldShowItOnThatRouteOnly() {
		take(search, RouteScopedKeys.counterKey(alice, route("/search/{q}"), options, "search"), 2);
		take(standard, RouteScopedKeys.counterKey(alice, RoutePolicy.DEFAULT, options, "standard"), 3);
		Quota quota = report.of(alice);
		assertThat(quota.at()).isEqualTo("2030-01-01T00:00:18Z");
		assertThat(quota.budgets()).extracting(BudgetQuota::budget, BudgetQuota::route)
			.containsExactly(tuple("standard", null), tuple("search", "/search/{q}"), tuple("search", "/find"));
		assertThat(remaining(quota, 0)).isEqualTo(7);
		assertThat(remaining(quota, 1)).isEqualTo(3);
		assertThat(remaining(quota, 2)).isEqualTo(5);
		assertThat(quota.budgets().get(0).bounds().get(0).reset()).isEqualTo("2030-01-01T00:01:00Z");
	}

	@Test
	void reportWhenReadSeveralTimesShouldSpendNothing() {
		take(standard, alice.value(), 1);
		for (int i = 0; i < 5; i++) {
			assertThat(remaining(report.of(alice), 0)).isEqualTo(9);
		}
	}

	@Test
	void reportOfAnotherCallerShouldShowItsOwnCountersOnly() {
		take(standard, alice.value(), 4);
		take(search, RouteScopedKeys.withRoute(alice.value(), "/find"), 4);
		Quota quota = report.of(bob);
		assertThat(quota.budgets()).allSatisfy((budget) -> assertThat(budget.bounds())
			.allSatisfy((bound) -> assertThat(bound.remaining()).isEqualTo(bound.limit())));
	}

	@Test
	void reportWhenWrittenAsJsonShouldCarryEveryMemberEscaped() {
		String json = report.of(alice).toJson();
		assertThat(json).startsWith("{\"at\":\"2030-01-01T00:00:18Z\",\"budgets\":[{\"budget\":\"standard\",")
			.contains("{\"name\":\"minute\",\"unit\":\"requests\",\"limit\":10,\"remaining\":10,"
					+ "\"reset\":\"2030-01-01T00:01:00Z\",\"algorithm\":\"fixed-window\",\"concurrency\":false}")
			.contains("\"route\":\"/search/{q}\"");
	}

	private void take(Budget budget, String key, int times) {
		for (int i = 0; i < times; i++) {
			assertThat(store.take(budget, key, 1, false, NOW.toEpochMilli()).allowed()).isTrue();
		}
	}

	private static long remaining(Quota quota, int budget) {
		return quota.budgets().get(budget).bounds().get(0).remaining();
	}

	private static RoutePolicy route(String pattern) {
		return new RoutePolicy(pattern, "search", false, false, null);
	}

	private static Principal principal(String name) {
		return () -> name;
	}

}
