package dev.limiter.actuate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Window;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.routes.CurrentRouteInventory;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.lang.Nullable;

/**
 * What the {@code limiter} actuator endpoint answers, without the actuator's annotations
 * (they are wiring). {@code /actuator/limiter}: the resolved budgets with their totals,
 * the route inventory, the store and its mode. {@code /actuator/limiter/keys/{keyHash}}:
 * one key's counters, read without counting (GET), or forgotten (DELETE)
 * ({@link KeyCounters}). The key hash is the counter key the default key resolver
 * produces ({@code t:} + SHA-256 of the token, base64url without padding); a raw token is
 * never accepted: anything else is a 400. {@code /actuator/limiter/addresses/{address}}:
 * the authentication guard's failures, lookups, block and proven credentials of one
 * client address (GET), or its block lifted (DELETE) ({@link GuardAddresses}). The
 * overview's {@code refresh} section is the last configuration refresh attempted.
 */
public class LimiterOperations {

	private final Supplier<BudgetRegistry> budgets;

	private final Supplier<BudgetOptions> options;

	private final ObjectProvider<RateLimitStore> stores;

	private final ObjectProvider<? extends CurrentRouteInventory> inventory;

	private final RateLimitTotals totals;

	private final KeyCounters keys;

	private final Supplier<RefreshDescriptor> refresh;

	private final GuardAddresses addresses;

	public LimiterOperations(BudgetRegistry budgets, BudgetOptions options, ObjectProvider<RateLimitStore> stores,
			ObjectProvider<RouteInventoryCheck> inventory, RateLimitTotals totals, Clock clock) {
		this(() -> budgets, () -> options, stores, inventory, totals, clock);
	}

	/**
	 * @param budgets the budgets in force (a configuration refresh may replace them)
	 * @param options their options, likewise
	 */
	public LimiterOperations(Supplier<BudgetRegistry> budgets, Supplier<BudgetOptions> options,
			ObjectProvider<RateLimitStore> stores, ObjectProvider<RouteInventoryCheck> inventory,
			RateLimitTotals totals, Clock clock) {
		this(budgets, options, stores, inventory, totals, clock, () -> null, () -> null);
	}

	/**
	 * @param budgets the budgets in force (a configuration refresh may replace them)
	 * @param options their options, likewise
	 * @param refresh the last configuration refresh attempted, {@code null} before any
	 * (or without refresh support)
	 * @param guards the authentication guard, {@code null} when it is off
	 * @param inventory the route inventory of the application's web stack
	 * ({@link RouteInventoryCheck} on Spring MVC, the reactive inventory on WebFlux)
	 */
	public LimiterOperations(Supplier<BudgetRegistry> budgets, Supplier<BudgetOptions> options,
			ObjectProvider<RateLimitStore> stores, ObjectProvider<? extends CurrentRouteInventory> inventory,
			RateLimitTotals totals, Clock clock, Supplier<RefreshDescriptor> refresh, Supplier<AuthGuard> guards) {
		this.refresh = refresh;
		this.budgets = budgets;
		this.options = options;
		this.stores = stores;
		this.inventory = inventory;
		this.totals = totals;
		this.keys = new KeyCounters(budgets, options, stores, this::routes, clock);
		this.addresses = new GuardAddresses(guards, clock);
	}

	public LimiterDescriptor limiter() {
		RateLimitStore store = stores.getIfAvailable();
		Map<String, BudgetDescriptor> described = new LinkedHashMap<>();
		BudgetRegistry budgets = this.budgets.get();
		for (Budget budget : budgets.all()) {
			described.put(budget.name(), describe(budget));
		}
		RouteInventory routes = routes();
		return new LimiterDescriptor(store == null ? "none" : store.name(), mode(store),
				options.get().shadowEverywhere() ? "shadow" : "enforce", budgets.defaultBudget().name(),
				budgets.anonymousBudget().name(), described,
				routes.entries().stream().map(LimiterOperations::describe).toList(), routes.deadRules(),
				totals.exempt(), refresh.get());
	}

	/**
	 * One key's counters in one budget ({@code budget}) or in every budget, read without
	 * counting.
	 */
	public Answer key(String segment, String keyHash, @Nullable String budget) {
		if (GuardAddresses.ADDRESSES_SEGMENT.equals(segment)) {
			return addresses.read(keyHash);
		}
		return keys.read(segment, keyHash, budget);
	}

	/**
	 * Forgets one key's counters and leases in one budget ({@code budget}) or in every
	 * budget.
	 */
	public Answer reset(String segment, String keyHash, @Nullable String budget) {
		if (GuardAddresses.ADDRESSES_SEGMENT.equals(segment)) {
			return addresses.unblock(keyHash);
		}
		return keys.forget(segment, keyHash, budget);
	}

	private RouteInventory routes() {
		CurrentRouteInventory check = inventory.getIfUnique();
		return check == null ? new RouteInventory(List.of(), List.of()) : check.inventory();
	}

	static String mode(RateLimitStore store) {
		if (store instanceof FailOpenRateLimitStore failOpen) {
			return failOpen.mode().tag();
		}
		return "authoritative";
	}

	private BudgetDescriptor describe(Budget budget) {
		List<WindowDescriptor> windows = new ArrayList<>();
		for (Window window : budget.windows()) {
			windows.add(new WindowDescriptor(window.name(), window.limit(), window.durationMillis() / 1000.0));
		}
		ConcurrencyDescriptor concurrency = budget.concurrency()
			.map(bound -> new ConcurrencyDescriptor(bound.max(), bound.leaseMillis() / 1000.0))
			.orElse(null);
		return new BudgetDescriptor(windows, concurrency, budget.countRefused(),
				options.get().scope(budget.name()).name().toLowerCase(Locale.ROOT), options.get().shadow(budget.name()),
				totals.of(budget.name()));
	}

	private static RouteDescriptor describe(RouteInventory.Entry entry) {
		return new RouteDescriptor(entry.methods(), entry.pattern(), entry.handler(), entry.budget(), entry.expensive(),
				entry.exempt(), entry.reason(), entry.source().label());
	}

	static BoundDescriptor describe(BoundVerdict bound) {
		return new BoundDescriptor(bound.name(), bound.concurrency(), bound.limit(), bound.remaining(),
				Instant.ofEpochMilli(bound.resetAtMillis()).toString());
	}

	public record LimiterDescriptor(String store, String mode, String enforcement, String defaultBudget,
			String anonymousBudget, Map<String, BudgetDescriptor> budgets, List<RouteDescriptor> routes,
			List<String> deadRules, long exemptRequests, RefreshDescriptor refresh) {
	}

	/**
	 * The last configuration refresh attempted: when ({@code at}, ISO-8601), its
	 * {@code outcome} ({@code applied}, or {@code refused} while the settings in force
	 * stayed), the {@code reason} of a refusal (start-up's message, naming the property)
	 * and the changed properties that wait for the next start.
	 */
	public record RefreshDescriptor(String at, String outcome, String reason, List<String> waitingForRestart) {
	}

	public record RouteDescriptor(List<String> methods, String pattern, String handler, String budget,
			boolean expensive, boolean exempt, String reason, String source) {
	}

	public record BudgetDescriptor(List<WindowDescriptor> windows, ConcurrencyDescriptor concurrency,
			boolean countRefused, String scope, boolean shadow, RateLimitTotals.Totals totals) {
	}

	public record WindowDescriptor(String name, long limit, double durationSeconds) {
	}

	public record ConcurrencyDescriptor(int max, double leaseSeconds) {
	}

	public record KeyDescriptor(String key, String at, List<CountersDescriptor> counters) {
	}

	/**
	 * One budget's counters of the key; {@code degraded} when they were read from the
	 * in-process fallback because the store cannot answer (exact for this instance only).
	 */
	public record CountersDescriptor(String budget, String route, List<BoundDescriptor> bounds, boolean degraded) {
	}

	public record BoundDescriptor(String name, boolean concurrency, long limit, long remaining, String resetAt) {
	}

	public record ResetDescriptor(String key, List<String> budgets) {
	}

	/**
	 * What the authentication guard holds for one address; {@code blockedUntil} is
	 * {@code null} when it is not blocked.
	 */
	public record AddressDescriptor(String address, String at, long failures, long pending, String blockedUntil,
			long provenCredentials) {
	}

	/** An address's block lifted: whether one was running. */
	public record UnblockDescriptor(String address, boolean wasBlocked) {
	}

	/** An HTTP status and the body to answer with. */
	public record Answer(int status, Object body) {
	}

}
