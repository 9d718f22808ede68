package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.limiter.autoconfigure.LimiterProperties.BudgetProperties;
import dev.limiter.autoconfigure.LimiterProperties.ConcurrencyProperties;
import dev.limiter.autoconfigure.LimiterProperties.RouteProperties;
import dev.limiter.autoconfigure.LimiterProperties.WindowProperties;
import dev.limiter.core.Budget;
import dev.limiter.core.BoundNames;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Window;
import dev.limiter.servlet.PropertiesRouteResolver.RouteRule;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetScope;
import dev.limiter.spring.KeyBy;
import dev.limiter.spring.RoutePolicy;
import org.springframework.util.StringUtils;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * Turns {@link LimiterProperties} into budgets and route rules, rejecting anything invalid with an
 * {@link InvalidLimiterConfigurationException} that names the property.
 */
final class LimiterConfigurationResolver {

    private static final String PREFIX = "limiter.";

    private LimiterConfigurationResolver() {
    }

    static BudgetRegistry budgets(LimiterProperties properties) {
        Map<String, BudgetProperties> effective = effectiveBudgets(properties);
        List<Budget> budgets = new ArrayList<>();
        for (Map.Entry<String, BudgetProperties> entry : effective.entrySet()) {
            budgets.add(budget(entry.getKey(), entry.getValue()));
        }
        requireBudget(effective, properties.getDefaultBudget(), "default-budget");
        requireBudget(effective, properties.getAnonymousBudget(), "anonymous-budget");
        return new BudgetRegistry(budgets, properties.getDefaultBudget(), properties.getAnonymousBudget());
    }

    /** The built-in budgets with the written ones laid over them field by field, then the other written ones. */
    static Map<String, BudgetProperties> effectiveBudgets(LimiterProperties properties) {
        Map<String, BudgetProperties> effective = LimiterProperties.builtInBudgets();
        Map<String, BudgetProperties> written = properties.getBudgets() == null ? Map.of() : properties.getBudgets();
        for (Map.Entry<String, BudgetProperties> entry : written.entrySet()) {
            BudgetProperties base = effective.get(entry.getKey());
            effective.put(entry.getKey(), base == null ? entry.getValue() : overlay(base, entry.getValue()));
        }
        return effective;
    }

    private static BudgetProperties overlay(BudgetProperties base, BudgetProperties written) {
        if (written == null) {
            return base;
        }
        BudgetProperties merged = new BudgetProperties();
        Map<String, WindowProperties> windows = new LinkedHashMap<>();
        base.getWindows().forEach((name, window) -> windows.put(name, copy(window)));
        if (written.getWindows() != null) {
            written.getWindows().forEach((name, window) -> {
                WindowProperties target = windows.computeIfAbsent(name, n -> new WindowProperties());
                if (window != null && window.getLimit() != null) {
                    target.setLimit(window.getLimit());
                }
                if (window != null && window.getDuration() != null) {
                    target.setDuration(window.getDuration());
                }
            });
        }
        merged.setWindows(windows);
        ConcurrencyProperties concurrency = written.getConcurrency();
        if (concurrency != null && base.getConcurrency() != null && concurrency.getMax() == null) {
            concurrency.setMax(base.getConcurrency().getMax());
        }
        merged.setConcurrency(concurrency != null ? concurrency : base.getConcurrency());
        merged.setCountRefused(written.getCountRefused() != null ? written.getCountRefused() : base.getCountRefused());
        merged.setScope(written.getScope() != null ? written.getScope() : base.getScope());
        merged.setShadow(written.getShadow() != null ? written.getShadow() : base.getShadow());
        merged.setKeyBy(written.getKeyBy() != null ? written.getKeyBy() : base.getKeyBy());
        return merged;
    }

    private static WindowProperties copy(WindowProperties window) {
        WindowProperties copy = new WindowProperties();
        copy.setLimit(window.getLimit());
        copy.setDuration(window.getDuration());
        return copy;
    }

    /** Scope and shadow mode of every budget, and {@code limiter.mode}. */
    static BudgetOptions options(LimiterProperties properties) {
        Map<String, BudgetScope> scopes = new LinkedHashMap<>();
        Map<String, Boolean> shadows = new LinkedHashMap<>();
        Map<String, KeyBy> keyBys = new LinkedHashMap<>();
        effectiveBudgets(properties).forEach((name, budget) -> {
            if (budget != null && budget.getKeyBy() != null) {
                keyBys.put(name, budget.getKeyBy());
            }
            if (budget != null && budget.getScope() != null) {
                scopes.put(name, budget.getScope());
            }
            if (budget != null && budget.getShadow() != null) {
                shadows.put(name, budget.getShadow());
            }
        });
        LimiterProperties.Mode mode = properties.getMode();
        if (mode == null) {
            throw invalid("mode", "must be enforce or shadow");
        }
        if (properties.getKeyBy() == null) {
            throw invalid("key-by", "must be credential or principal");
        }
        return new BudgetOptions(mode == LimiterProperties.Mode.SHADOW, scopes, shadows, properties.getKeyBy(),
                keyBys);
    }

    static List<RouteRule> routes(LimiterProperties properties) {
        List<RouteRule> rules = new ArrayList<>();
        Map<String, BudgetProperties> budgets = effectiveBudgets(properties);
        List<RouteProperties> routes = properties.getRoutes() == null ? List.of() : properties.getRoutes();
        for (int i = 0; i < routes.size(); i++) {
            RouteProperties route = routes.get(i);
            String at = "routes[" + i + "].";
            if (route == null || !StringUtils.hasText(route.getPattern())) {
                throw invalid(at + "pattern", "must be a path pattern such as /api/**");
            }
            try {
                PathPatternParser.defaultInstance.parse(route.getPattern());
            }
            catch (PatternParseException ex) {
                throw invalid(at + "pattern", "is not a valid Spring PathPattern ('" + route.getPattern() + "': "
                        + ex.getMessage() + ")");
            }
            if (route.getBudget() != null && !budgets.containsKey(route.getBudget())) {
                throw invalid(at + "budget", "names the unknown budget '" + route.getBudget() + "'; known budgets are "
                        + budgets.keySet());
            }
            if (route.isExempt() && !StringUtils.hasText(route.getReason())) {
                throw invalid(at + "reason", "must say why the exempt route '" + route.getPattern()
                        + "' is not limited");
            }
            List<String> methods = route.getMethods() == null ? List.of() : route.getMethods();
            for (int m = 0; m < methods.size(); m++) {
                if (!StringUtils.hasText(methods.get(m)) || !methods.get(m).matches("[A-Za-z]+")) {
                    throw invalid(at + "methods[" + m + "]", "must be an HTTP method name such as GET or POST");
                }
            }
            rules.add(new RouteRule(route.getPattern(), methods, new RoutePolicy(route.getPattern(),
                    route.getBudget(), route.isExpensive(), route.isExempt(), route.getReason())));
        }
        return rules;
    }

    static void checkStores(LimiterProperties properties) {
        if (properties.getMemory().getMaxKeys() < 1) {
            throw invalid("memory.max-keys", "must be at least 1, was " + properties.getMemory().getMaxKeys());
        }
        if (properties.getFallback().getMaxKeys() < 1) {
            throw invalid("fallback.max-keys", "must be at least 1, was " + properties.getFallback().getMaxKeys());
        }
        Duration timeout = properties.getRedis().getTimeout();
        if (timeout == null || timeout.toMillis() < 1) {
            throw invalid("redis.timeout", "must be a positive duration, was " + timeout);
        }
        if (!StringUtils.hasText(properties.getRedis().getKeyPrefix())) {
            throw invalid("redis.key-prefix", "must not be empty");
        }
    }

    private static void requireBudget(Map<String, BudgetProperties> budgets, String name, String property) {
        if (name == null || !budgets.containsKey(name)) {
            throw invalid(property, "names the unknown budget '" + name + "'; known budgets are " + budgets.keySet());
        }
    }

    private static Budget budget(String name, BudgetProperties properties) {
        String at = "budgets." + name;
        if (!BoundNames.isValidBudgetName(name)) {
            throw invalid(at, "is not a valid budget name: use 1 to 64 of A-Z a-z 0-9 _ -");
        }
        if (properties == null || properties.getWindows() == null || properties.getWindows().isEmpty()) {
            throw invalid(at + ".windows", "must declare at least one window, such as minute: { limit: 60, duration: 1m }");
        }
        Budget.Builder builder = Budget.builder(name)
                .countRefused(Boolean.TRUE.equals(properties.getCountRefused()));
        for (Map.Entry<String, WindowProperties> entry : properties.getWindows().entrySet()) {
            builder.window(window(at + ".windows." + entry.getKey(), entry.getKey(), entry.getValue()));
        }
        ConcurrencyProperties concurrency = properties.getConcurrency();
        if (concurrency != null) {
            if (concurrency.getMax() == null || concurrency.getMax() < 1) {
                throw invalid(at + ".concurrency.max", "must be at least 1, was " + concurrency.getMax());
            }
            if (concurrency.getLease() == null || concurrency.getLease().toMillis() < 1) {
                throw invalid(at + ".concurrency.lease", "must be a positive duration, was " + concurrency.getLease());
            }
            builder.concurrency(new ConcurrencyBound(concurrency.getMax(), concurrency.getLease()));
        }
        return builder.build();
    }

    private static Window window(String at, String name, WindowProperties properties) {
        if (name.equals(BoundNames.CONCURRENCY) || !name.matches("[A-Za-z0-9_-]{1,32}")) {
            throw invalid(at, "is not a valid window name: use 1 to 32 of A-Z a-z 0-9 _ -, and not 'concurrency'");
        }
        if (properties == null || properties.getLimit() == null || properties.getLimit() < 1) {
            throw invalid(at + ".limit", "must be at least 1, was " + (properties == null ? null : properties.getLimit()));
        }
        if (properties.getDuration() == null || properties.getDuration().toMillis() < 1) {
            throw invalid(at + ".duration", "must be a positive duration such as 1m, was " + properties.getDuration());
        }
        if (properties.getDuration().toMillis() % 1000 != 0) {
            // RateLimit-Policy's w, X-RateLimit-Window and Retry-After speak whole seconds only
            throw invalid(at + ".duration", "must be a whole number of seconds (the rate-limit headers state "
                    + "windows in seconds), was " + properties.getDuration());
        }
        return Window.of(name, properties.getLimit(), properties.getDuration());
    }

    private static InvalidLimiterConfigurationException invalid(String property, String reason) {
        return new InvalidLimiterConfigurationException(PREFIX + property, reason);
    }
}
