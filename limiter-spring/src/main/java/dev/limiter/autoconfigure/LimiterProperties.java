package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.limiter.spring.BudgetScope;
import dev.limiter.spring.KeyBy;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the limiter, bound from {@code limiter.*}. Validated when the budgets are resolved
 * ({@link BudgetRegistryFactory}); an invalid value fails start-up with a message naming the property.
 */
@ConfigurationProperties("limiter")
public class LimiterProperties {

    /** Name of the budget a request falls to when no route rule names one. */
    public static final String DEFAULT_BUDGET = "standard";

    /** Name of the budget every request without a credential is counted against. */
    public static final String ANONYMOUS_BUDGET = "anonymous";

    /** Whether the limiter is active at all; false registers none of its beans. */
    private boolean enabled = true;

    /** Where counters live: memory (this process) or redis (shared by every instance). */
    private StoreType store = StoreType.MEMORY;

    /** Budget for authenticated requests that no route rule gives another budget. */
    private String defaultBudget = DEFAULT_BUDGET;

    /** Budget for every request without a credential, keyed on the client address. */
    private String anonymousBudget = ANONYMOUS_BUDGET;

    /** Which rate-limit headers counted responses carry: x-ratelimit, ietf or both. */
    private HeaderStyle headers = HeaderStyle.X_RATELIMIT;

    /** Whether refusals are enforced (enforce) or only counted, logged and metered (shadow) for every budget. */
    private Mode mode = Mode.ENFORCE;

    /**
     * What an authenticated request is counted by: credential (each token its own budget) or principal (a JWT's
     * issuer and subject, another authentication's principal name); a budget's own key-by overrides it.
     */
    private KeyBy keyBy = KeyBy.CREDENTIAL;

    /** The start-up check of every handler against the route rules and annotations. */
    private final Inventory inventory = new Inventory();

    /**
     * Budgets by name. 'standard' (600/minute, 36000/hour, 10 expensive in flight) and 'anonymous' (60/minute,
     * 1000/hour) are built in; writing one of them overrides only the fields written.
     */
    private Map<String, BudgetProperties> budgets = new LinkedHashMap<>();

    /** Route rules, first match wins; unmatched requests fall to the default budget. */
    private List<RouteProperties> routes = new ArrayList<>();

    /** The in-process store. */
    private final Memory memory = new Memory();

    /** The Redis store. */
    private final Redis redis = new Redis();

    /** The in-process fallback used while the authoritative store is failing. */
    private final Fallback fallback = new Fallback();

    /** The authentication-failure guard, which blocks an address that keeps failing authentication. */
    private final AuthGuard authGuard = new AuthGuard();

    /** Largest request body accepted; a larger one is refused with 413 (unset: no bound). */
    private DataSize maxRequestBody;

    /**
     * The budgets that exist before any configuration: {@code standard} and {@code anonymous}. A budget of the same
     * name under {@code limiter.budgets} starts from these values and overrides only the fields it writes, so one
     * environment variable can change one bound.
     */
    public static Map<String, BudgetProperties> builtInBudgets() {
        Map<String, BudgetProperties> builtIn = new LinkedHashMap<>();
        builtIn.put(DEFAULT_BUDGET, BudgetProperties.builtInStandard());
        builtIn.put(ANONYMOUS_BUDGET, BudgetProperties.builtInAnonymous());
        return builtIn;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public StoreType getStore() {
        return store;
    }

    public void setStore(StoreType store) {
        this.store = store;
    }

    public String getDefaultBudget() {
        return defaultBudget;
    }

    public void setDefaultBudget(String defaultBudget) {
        this.defaultBudget = defaultBudget;
    }

    public String getAnonymousBudget() {
        return anonymousBudget;
    }

    public void setAnonymousBudget(String anonymousBudget) {
        this.anonymousBudget = anonymousBudget;
    }

    public HeaderStyle getHeaders() {
        return headers;
    }

    public void setHeaders(HeaderStyle headers) {
        this.headers = headers;
    }

    public Mode getMode() {
        return mode;
    }

    public void setMode(Mode mode) {
        this.mode = mode;
    }

    public KeyBy getKeyBy() {
        return keyBy;
    }

    public void setKeyBy(KeyBy keyBy) {
        this.keyBy = keyBy;
    }

    public Inventory getInventory() {
        return inventory;
    }

    public Map<String, BudgetProperties> getBudgets() {
        return budgets;
    }

    public void setBudgets(Map<String, BudgetProperties> budgets) {
        this.budgets = budgets;
    }

    public List<RouteProperties> getRoutes() {
        return routes;
    }

    public void setRoutes(List<RouteProperties> routes) {
        this.routes = routes;
    }

    public Memory getMemory() {
        return memory;
    }

    public Redis getRedis() {
        return redis;
    }

    public AuthGuard getAuthGuard() {
        return authGuard;
    }

    public DataSize getMaxRequestBody() {
        return maxRequestBody;
    }

    public void setMaxRequestBody(DataSize maxRequestBody) {
        this.maxRequestBody = maxRequestBody;
    }

    public Fallback getFallback() {
        return fallback;
    }

    /** Where counters live. */
    public enum StoreType {
        /** Counters in this process: one instance, nothing to install. */
        MEMORY,
        /** Counters in Redis through spring-data-redis: exact across every instance. */
        REDIS
    }

    /** Whether refusals are enforced. */
    public enum Mode {
        /** A refused request gets the 429 (or 503) and never reaches the handler. */
        ENFORCE,
        /** Decide, count, log and meter, but let refused requests through with X-RateLimit-Shadow: refused. */
        SHADOW
    }

    /** The start-up inventory of handlers. */
    public static class Inventory {

        /** Whether start-up fails on a handler that falls to the default budget implicitly or a rule that matches no handler. */
        private boolean strict = false;

        public boolean isStrict() {
            return strict;
        }

        public void setStrict(boolean strict) {
            this.strict = strict;
        }
    }

    /** Which rate-limit header fields to write. */
    public enum HeaderStyle {
        /** X-RateLimit-Limit, -Remaining, -Reset and -Window for the binding window. */
        X_RATELIMIT,
        /** RateLimit-Policy and RateLimit of draft-ietf-httpapi-ratelimit-headers. */
        IETF,
        /** Both sets. */
        BOTH;

        public boolean xRateLimit() {
            return this != IETF;
        }

        public boolean ietf() {
            return this != X_RATELIMIT;
        }
    }

    /** One budget: named windows, an optional concurrency bound, and whether refusals count. */
    public static class BudgetProperties {

        /** Windows by short name (such as minute or hour), each a limit per duration. */
        private Map<String, WindowProperties> windows = new LinkedHashMap<>();

        /** Optional bound on expensive requests in flight at once. */
        private ConcurrencyProperties concurrency;

        /** Whether refused requests still spend from every window; false when unset. */
        private Boolean countRefused;

        /** Whether one quota is shared by every route (key) or kept per matched route pattern (route); key when unset. */
        private BudgetScope scope;

        /** Whether this budget's refusals are only counted, logged and metered, not enforced; false when unset. */
        private Boolean shadow;

        /** What this budget counts an authenticated request by: credential or principal; limiter.key-by when unset. */
        private KeyBy keyBy;

        /** What this budget does while the store cannot answer: open (fallback, degraded) when unset. */
        private StoreFailureMode onStoreFailure;

        static BudgetProperties builtInStandard() {
            BudgetProperties budget = new BudgetProperties();
            budget.windows.put("minute", new WindowProperties(600, Duration.ofMinutes(1)));
            budget.windows.put("hour", new WindowProperties(36_000, Duration.ofHours(1)));
            budget.concurrency = new ConcurrencyProperties(10, Duration.ofSeconds(30));
            return budget;
        }

        static BudgetProperties builtInAnonymous() {
            BudgetProperties budget = new BudgetProperties();
            budget.windows.put("minute", new WindowProperties(60, Duration.ofMinutes(1)));
            budget.windows.put("hour", new WindowProperties(1_000, Duration.ofHours(1)));
            return budget;
        }

        public Map<String, WindowProperties> getWindows() {
            return windows;
        }

        public void setWindows(Map<String, WindowProperties> windows) {
            this.windows = windows;
        }

        public ConcurrencyProperties getConcurrency() {
            return concurrency;
        }

        public void setConcurrency(ConcurrencyProperties concurrency) {
            this.concurrency = concurrency;
        }

        public Boolean getCountRefused() {
            return countRefused;
        }

        public void setCountRefused(Boolean countRefused) {
            this.countRefused = countRefused;
        }

        public BudgetScope getScope() {
            return scope;
        }

        public void setScope(BudgetScope scope) {
            this.scope = scope;
        }

        public Boolean getShadow() {
            return shadow;
        }

        public void setShadow(Boolean shadow) {
            this.shadow = shadow;
        }

        public KeyBy getKeyBy() {
            return keyBy;
        }

        public void setKeyBy(KeyBy keyBy) {
            this.keyBy = keyBy;
        }

        public StoreFailureMode getOnStoreFailure() {
            return onStoreFailure;
        }

        public void setOnStoreFailure(StoreFailureMode onStoreFailure) {
            this.onStoreFailure = onStoreFailure;
        }
    }

    /** What a budget does while the store cannot answer. */
    public enum StoreFailureMode {
        /** Decide with the in-process fallback and mark the decision degraded. */
        OPEN,
        /** Refuse with 503 and Retry-After until the store answers again. */
        CLOSED
    }

    /** One fixed window anchored to the wall clock. */
    public static class WindowProperties {

        /** Requests admitted per window; at least 1. */
        private Long limit;

        /** Length of the window, such as 1m or 1h; positive. */
        private Duration duration;

        public WindowProperties() {
        }

        WindowProperties(long limit, Duration duration) {
            this.limit = limit;
            this.duration = duration;
        }

        public Long getLimit() {
            return limit;
        }

        public void setLimit(Long limit) {
            this.limit = limit;
        }

        public Duration getDuration() {
            return duration;
        }

        public void setDuration(Duration duration) {
            this.duration = duration;
        }
    }

    /** Bound on expensive requests in flight per key. */
    public static class ConcurrencyProperties {

        /** Expensive requests in flight at once per key; at least 1. */
        private Integer max;

        /** How long a lease lives if the request never hands it back. */
        private Duration lease = Duration.ofSeconds(30);

        public ConcurrencyProperties() {
        }

        ConcurrencyProperties(int max, Duration lease) {
            this.max = max;
            this.lease = lease;
        }

        public Integer getMax() {
            return max;
        }

        public void setMax(Integer max) {
            this.max = max;
        }

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }
    }

    /** One route rule: which requests it matches and how they are counted. */
    public static class RouteProperties {

        /** Spring PathPattern the request path must match, such as /s/recall or /actuator/**. */
        private String pattern;

        /** HTTP methods the rule applies to; empty means every method. */
        private List<String> methods = new ArrayList<>();

        /** Budget for matching authenticated requests; the default budget when unset. */
        private String budget;

        /** Whether matching requests also take a concurrency lease. */
        private boolean expensive = false;

        /** Whether matching requests are not limited at all; needs a reason. */
        private boolean exempt = false;

        /** Why an exempt route is exempt; required when exempt is true. */
        private String reason;

        public String getPattern() {
            return pattern;
        }

        public void setPattern(String pattern) {
            this.pattern = pattern;
        }

        public List<String> getMethods() {
            return methods;
        }

        public void setMethods(List<String> methods) {
            this.methods = methods;
        }

        public String getBudget() {
            return budget;
        }

        public void setBudget(String budget) {
            this.budget = budget;
        }

        public boolean isExpensive() {
            return expensive;
        }

        public void setExpensive(boolean expensive) {
            this.expensive = expensive;
        }

        public boolean isExempt() {
            return exempt;
        }

        public void setExempt(boolean exempt) {
            this.exempt = exempt;
        }

        public String getReason() {
            return reason;
        }

        public void setReason(String reason) {
            this.reason = reason;
        }
    }

    /** The in-process store. */
    public static class Memory {

        /** Most keys held at once; the oldest or expired go first. */
        private int maxKeys = 100_000;

        public int getMaxKeys() {
            return maxKeys;
        }

        public void setMaxKeys(int maxKeys) {
            this.maxKeys = maxKeys;
        }
    }

    /** The Redis store. */
    public static class Redis {

        /** Prefix of every key the limiter writes to Redis. */
        private String keyPrefix = "limiter";

        /** How long one store call may take before the request is decided by the fallback. */
        private Duration timeout = Duration.ofSeconds(1);

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** The in-process fallback limiter. */
    public static class Fallback {

        /** Most keys the fallback holds at once. */
        private int maxKeys = 100_000;

        public int getMaxKeys() {
            return maxKeys;
        }

        public void setMaxKeys(int maxKeys) {
            this.maxKeys = maxKeys;
        }
    }

    public static class AuthGuard {

        /** Whether the guard runs; it is only installed when Spring Security is present. */
        private boolean enabled = true;

        /** Failed authentications from one address, inside the window, that start a block. */
        private int threshold = 50;

        /** How long a failed authentication counts against its address after it happened. */
        private Duration window = Duration.ofMinutes(15);

        /** How long an address that reached the threshold is refused. */
        private Duration block = Duration.ofMinutes(30);

        /** Credential lookups one address may have in flight at once; more get a transient 429. */
        private int maxPending = 50;

        /**
         * How long an instance remembers a credential it saw authenticate; meanwhile its lookups take no
         * reservation and cost the store nothing. Zero turns the memory off.
         */
        private Duration rememberAuthenticated = Duration.ofMinutes(5);

        public Duration getRememberAuthenticated() {
            return rememberAuthenticated;
        }

        public void setRememberAuthenticated(Duration rememberAuthenticated) {
            this.rememberAuthenticated = rememberAuthenticated;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getThreshold() {
            return threshold;
        }

        public void setThreshold(int threshold) {
            this.threshold = threshold;
        }

        public Duration getWindow() {
            return window;
        }

        public void setWindow(Duration window) {
            this.window = window;
        }

        public Duration getBlock() {
            return block;
        }

        public void setBlock(Duration block) {
            this.block = block;
        }

        public int getMaxPending() {
            return maxPending;
        }

        public void setMaxPending(int maxPending) {
            this.maxPending = maxPending;
        }
    }
}
