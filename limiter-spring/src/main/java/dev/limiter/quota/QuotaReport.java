package dev.limiter.quota;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Window;
import dev.limiter.decision.RouteScopedKeys;
import dev.limiter.routes.RouteInventory;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetScope;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.web.ProblemJson;

/**
 * A caller's own quota, whichever web stack asks: every budget an authenticated caller's
 * requests can be counted against (the default budget and every budget a route of the
 * inventory uses), each bound's limit, remaining and reset, read with
 * {@link RateLimitStore#peek} (nothing is spent) under the very key the limiter counts
 * that caller by ({@link RouteScopedKeys}: per route for a route-scoped budget).
 */
public final class QuotaReport {

	/** The name of the quota endpoint's own budget, in its 429s and the store. */
	public static final String BUDGET_NAME = "quota-endpoint";

	private final Supplier<RateLimitRules> rules;

	private final RateLimitStore store;

	private final Supplier<RouteInventory> inventory;

	private final Clock clock;

	/**
	 * @param inventory the route inventory, or a supplier of {@code null} when there is
	 * none (then the default budget only)
	 */
	public QuotaReport(Supplier<RateLimitRules> rules, RateLimitStore store, Supplier<RouteInventory> inventory,
			Clock clock) {
		this.rules = rules;
		this.store = store;
		this.inventory = inventory;
		this.clock = clock;
	}

	/**
	 * The quota endpoint's own budget, which bounds how often one caller reads its quota:
	 * one window of {@code perMinute} a minute.
	 */
	public static Budget bound(int perMinute) {
		return Budget.builder(BUDGET_NAME).window("minute", perMinute, Duration.ofMinutes(1)).build();
	}

	/** {@code caller}'s counters in every budget that applies to it, read now. */
	public Quota of(CallerKey caller) {
		RateLimitRules current = rules.get();
		BudgetOptions options = current.options();
		long now = clock.millis();
		List<BudgetQuota> budgets = new ArrayList<>();
		for (Map.Entry<Budget, Set<String>> applying : applying(current.budgets()).entrySet()) {
			Budget budget = applying.getKey();
			String key = caller.value(options.keyBy(budget.name()));
			if (options.scope(budget.name()) != BudgetScope.ROUTE) {
				budgets.add(read(budget, null, key, now));
				continue;
			}
			for (String pattern : applying.getValue()) {
				budgets.add(read(budget, pattern, RouteScopedKeys.withRoute(key, pattern), now));
			}
		}
		return new Quota(Instant.ofEpochMilli(now).toString(), budgets);
	}

	/**
	 * The default budget, then each budget the inventory's counted routes name, with the
	 * route patterns that use it.
	 */
	private Map<Budget, Set<String>> applying(BudgetRegistry registry) {
		Map<Budget, Set<String>> applying = new LinkedHashMap<>();
		applying.put(registry.defaultBudget(), new LinkedHashSet<>());
		RouteInventory routes = inventory.get();
		if (routes == null) {
			return applying;
		}
		for (RouteInventory.Entry entry : routes.entries()) {
			if (entry.exempt() || entry.budget() == null) {
				continue;
			}
			registry.find(entry.budget())
				.ifPresent((budget) -> applying.computeIfAbsent(budget, (b) -> new LinkedHashSet<>())
					.add(entry.pattern()));
		}
		return applying;
	}

	private BudgetQuota read(Budget budget, String route, String counterKey, long now) {
		KeyState state = store.peek(budget, counterKey, now);
		List<BoundQuota> bounds = state.bounds().stream().map((bound) -> describe(budget, bound)).toList();
		return new BudgetQuota(budget.name(), route, bounds);
	}

	private static BoundQuota describe(Budget budget, BoundVerdict bound) {
		String algorithm = bound.concurrency() ? "concurrency"
				: budget.windows()
					.stream()
					.filter((window) -> window.name().equals(bound.name()))
					.findFirst()
					.map(Window::algorithm)
					.map((value) -> value.value())
					.orElse(null);
		return new BoundQuota(bound.name(), bound.unit(), bound.limit(), bound.remaining(),
				Instant.ofEpochMilli(bound.resetAtMillis()).toString(), algorithm, bound.concurrency());
	}

	/** The report: when it was read ({@code at}, ISO-8601) and each budget's counters. */
	public record Quota(String at, List<BudgetQuota> budgets) {

		/** The JSON the quota endpoint answers. */
		public String toJson() {
			StringBuilder out = new StringBuilder("{\"at\":").append(ProblemJson.string(at)).append(",\"budgets\":[");
			for (int i = 0; i < budgets.size(); i++) {
				out.append(i > 0 ? "," : "");
				budgets.get(i).appendTo(out);
			}
			return out.append("]}").toString();
		}

	}

	/**
	 * One budget's counters for the caller; {@code route} is the pattern of a
	 * route-scoped budget, else {@code null}.
	 */
	public record BudgetQuota(String budget, String route, List<BoundQuota> bounds) {

		void appendTo(StringBuilder out) {
			out.append("{\"budget\":").append(ProblemJson.string(budget));
			if (route != null) {
				out.append(",\"route\":").append(ProblemJson.string(route));
			}
			out.append(",\"bounds\":[");
			for (int i = 0; i < bounds.size(); i++) {
				out.append(i > 0 ? "," : "");
				bounds.get(i).appendTo(out);
			}
			out.append("]}");
		}

	}

	/**
	 * One window (or the concurrency bound, {@code algorithm} {@code concurrency}): its
	 * name, unit, limit, what is left and when it resets (ISO-8601).
	 */
	public record BoundQuota(String name, String unit, long limit, long remaining, String reset, String algorithm,
			boolean concurrency) {

		void appendTo(StringBuilder out) {
			out.append("{\"name\":")
				.append(ProblemJson.string(name))
				.append(",\"unit\":")
				.append(ProblemJson.string(unit))
				.append(",\"limit\":")
				.append(limit)
				.append(",\"remaining\":")
				.append(remaining)
				.append(",\"reset\":")
				.append(ProblemJson.string(reset))
				.append(",\"algorithm\":")
				.append(ProblemJson.string(algorithm))
				.append(",\"concurrency\":")
				.append(concurrency)
				.append('}');
		}

	}

}
