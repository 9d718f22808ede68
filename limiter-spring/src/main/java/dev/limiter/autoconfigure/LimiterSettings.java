package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.routes.PropertiesRouteResolver.RouteRule;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;

/**
 * The limiter's configuration after {@link LimiterProperties} was resolved and validated,
 * once, by {@link LimiterConfigurationResolver}. Immutable; every auto-configuration
 * reads this, never the bound properties.
 *
 * @param budgets the built-in budgets with the written ones laid over them, default and
 * anonymous budget
 * @param options scope, shadow mode and key-by of every budget, and {@code limiter.mode}
 * @param routes {@code limiter.routes}, in order
 * @param store {@code limiter.store}
 * @param headers {@code limiter.headers}
 * @param inventoryStrict {@code limiter.inventory.strict}
 * @param memoryMaxKeys {@code limiter.memory.max-keys}
 * @param fallbackMaxKeys {@code limiter.fallback.max-keys}
 * @param failClosedBudgets budgets whose {@code on-store-failure} is {@code closed},
 * built-in budgets merged
 * @param redisKeyPrefix {@code limiter.redis.key-prefix}
 * @param redisTimeout {@code limiter.redis.timeout}
 * @param authGuard the guard's policy; empty when
 * {@code limiter.auth-guard.enabled=false}
 * @param maxRequestBodyBytes {@code limiter.max-request-body} in bytes; empty when unset
 * @param maxBudgetDefinitions {@code limiter.budget-definitions.max-cached}
 * @param countStaticResources {@code limiter.count-static-resources}
 * @param gatewayReportHeader {@code limiter.gateway.report-header}; empty when unset
 */
public record LimiterSettings(BudgetRegistry budgets, BudgetOptions options, List<RouteRule> routes, StoreType store,
		HeaderStyle headers, boolean inventoryStrict, int memoryMaxKeys, int fallbackMaxKeys,
		Set<String> failClosedBudgets, String redisKeyPrefix, Duration redisTimeout,
		Optional<AuthGuardPolicy> authGuard, OptionalLong maxRequestBodyBytes, int maxBudgetDefinitions,
		boolean countStaticResources, Optional<String> gatewayReportHeader) {

	public LimiterSettings {
		routes = List.copyOf(routes);
		failClosedBudgets = Set.copyOf(failClosedBudgets);
	}
}
