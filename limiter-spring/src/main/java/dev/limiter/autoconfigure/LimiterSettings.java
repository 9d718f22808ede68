package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.servlet.PropertiesRouteResolver.RouteRule;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;

/**
 * The limiter's configuration after {@link LimiterProperties} was resolved and validated, once, by
 * {@link LimiterConfigurationResolver}: the merged budgets, their options, the route rules and the store, guard
 * and body settings. Immutable; every auto-configuration reads this, never the bound properties.
 */
public final class LimiterSettings {

    private final BudgetRegistry budgets;
    private final BudgetOptions options;
    private final List<RouteRule> routes;
    private final StoreType store;
    private final HeaderStyle headers;
    private final boolean inventoryStrict;
    private final int memoryMaxKeys;
    private final int fallbackMaxKeys;
    private final Set<String> failClosedBudgets;
    private final String redisKeyPrefix;
    private final Duration redisTimeout;
    private final AuthGuardPolicy authGuard;
    private final Long maxRequestBodyBytes;

    LimiterSettings(Builder builder) {
        this.budgets = builder.budgets;
        this.options = builder.options;
        this.routes = List.copyOf(builder.routes);
        this.store = builder.store;
        this.headers = builder.headers;
        this.inventoryStrict = builder.inventoryStrict;
        this.memoryMaxKeys = builder.memoryMaxKeys;
        this.fallbackMaxKeys = builder.fallbackMaxKeys;
        this.failClosedBudgets = Set.copyOf(builder.failClosedBudgets);
        this.redisKeyPrefix = builder.redisKeyPrefix;
        this.redisTimeout = builder.redisTimeout;
        this.authGuard = builder.authGuard;
        this.maxRequestBodyBytes = builder.maxRequestBodyBytes;
    }

    /** The built-in budgets with the written ones laid over them, and the default and anonymous budget. */
    public BudgetRegistry budgets() {
        return budgets;
    }

    /** Scope, shadow mode and key-by of every budget, and {@code limiter.mode}. */
    public BudgetOptions options() {
        return options;
    }

    /** {@code limiter.routes}, in order. */
    public List<RouteRule> routes() {
        return routes;
    }

    public StoreType store() {
        return store;
    }

    public HeaderStyle headers() {
        return headers;
    }

    public boolean inventoryStrict() {
        return inventoryStrict;
    }

    public int memoryMaxKeys() {
        return memoryMaxKeys;
    }

    public int fallbackMaxKeys() {
        return fallbackMaxKeys;
    }

    /** Budgets whose {@code on-store-failure} is {@code closed}, after the built-in budgets were merged. */
    public Set<String> failClosedBudgets() {
        return failClosedBudgets;
    }

    public String redisKeyPrefix() {
        return redisKeyPrefix;
    }

    public Duration redisTimeout() {
        return redisTimeout;
    }

    /** The guard's policy; empty when {@code limiter.auth-guard.enabled=false}. */
    public Optional<AuthGuardPolicy> authGuard() {
        return Optional.ofNullable(authGuard);
    }

    /** {@code limiter.max-request-body} in bytes; empty when unset. */
    public OptionalLong maxRequestBodyBytes() {
        return maxRequestBodyBytes == null ? OptionalLong.empty() : OptionalLong.of(maxRequestBodyBytes);
    }

    static final class Builder {

        BudgetRegistry budgets;
        BudgetOptions options;
        List<RouteRule> routes = List.of();
        StoreType store;
        HeaderStyle headers;
        boolean inventoryStrict;
        int memoryMaxKeys;
        int fallbackMaxKeys;
        Set<String> failClosedBudgets = Set.of();
        String redisKeyPrefix;
        Duration redisTimeout;
        AuthGuardPolicy authGuard;
        Long maxRequestBodyBytes;

        LimiterSettings build() {
            return new LimiterSettings(this);
        }
    }
}
