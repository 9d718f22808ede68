package dev.limiter.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.limiter.spring.KeyBy;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the limiter, bound from {@code limiter.*}. Validated when the budgets
 * are resolved ({@link LimiterConfigurationResolver}); an invalid value fails start-up
 * with a message naming the property.
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

	/**
	 * Whether refusals are enforced (enforce) or only counted, logged and metered
	 * (shadow) for every budget.
	 */
	private Mode mode = Mode.ENFORCE;

	/**
	 * What an authenticated request is counted by: credential (each token its own budget)
	 * or principal (a JWT's issuer and subject, another authentication's principal name);
	 * a budget's own key-by overrides it.
	 */
	private KeyBy keyBy = KeyBy.CREDENTIAL;

	/** The start-up check of every handler against the route rules and annotations. */
	@NestedConfigurationProperty
	private final InventoryProperties inventory = new InventoryProperties();

	/**
	 * Budgets by name. 'standard' (600/minute, 36000/hour, 10 expensive in flight) and
	 * 'anonymous' (60/minute, 1000/hour) are built in; writing one of them overrides only
	 * the fields written.
	 */
	private Map<String, BudgetProperties> budgets = new LinkedHashMap<>();

	/** Route rules, first match wins; unmatched requests fall to the default budget. */
	private List<RouteProperties> routes = new ArrayList<>();

	/** The in-process store. */
	@NestedConfigurationProperty
	private final MemoryProperties memory = new MemoryProperties();

	/** The Redis store. */
	@NestedConfigurationProperty
	private final RedisStoreProperties redis = new RedisStoreProperties();

	/** The in-process fallback used while the authoritative store is failing. */
	@NestedConfigurationProperty
	private final FallbackProperties fallback = new FallbackProperties();

	/**
	 * The authentication-failure guard, which blocks an address that keeps failing
	 * authentication.
	 */
	@NestedConfigurationProperty
	private final AuthGuardProperties authGuard = new AuthGuardProperties();

	/**
	 * Largest request body accepted; a larger one is refused with 413 (unset: no bound).
	 */
	private DataSize maxRequestBody;

	/** Budgets an application defines at run time. */
	@NestedConfigurationProperty
	private final BudgetDefinitionsProperties budgetDefinitions = new BudgetDefinitionsProperties();

	/** The limits in the OpenAPI document (springdoc). */
	@NestedConfigurationProperty
	private final OpenApiProperties openapi = new OpenApiProperties();

	/** The start-up check of keys under limiter.* that bind to nothing. */
	@NestedConfigurationProperty
	private final ConfigCheckProperties configCheck = new ConfigCheckProperties();

	/**
	 * Whether static resources (Spring's resource handlers: static locations, webjars,
	 * favicon, Swagger UI's files) and springdoc's own endpoints (/v3/api-docs/**,
	 * /swagger-ui.html) are counted; false exempts them.
	 */
	private boolean countStaticResources = false;

	/** The limiter's meters. */
	@NestedConfigurationProperty
	private final MetricsProperties metrics = new MetricsProperties();

	/** A caller's own quota, read without spending it. */
	@NestedConfigurationProperty
	private final QuotaEndpointProperties quotaEndpoint = new QuotaEndpointProperties();

	/** The limiter on a Spring Cloud Gateway's routes. */
	@NestedConfigurationProperty
	private final GatewayProperties gateway = new GatewayProperties();

	/**
	 * The budgets that exist before any configuration: {@code standard} and
	 * {@code anonymous}. A budget of the same name under {@code limiter.budgets} starts
	 * from these values and overrides only the fields it writes, so one environment
	 * variable can change one bound.
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

	public InventoryProperties getInventory() {
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

	public MemoryProperties getMemory() {
		return memory;
	}

	public RedisStoreProperties getRedis() {
		return redis;
	}

	public AuthGuardProperties getAuthGuard() {
		return authGuard;
	}

	public boolean isCountStaticResources() {
		return countStaticResources;
	}

	public void setCountStaticResources(boolean countStaticResources) {
		this.countStaticResources = countStaticResources;
	}

	public DataSize getMaxRequestBody() {
		return maxRequestBody;
	}

	public void setMaxRequestBody(DataSize maxRequestBody) {
		this.maxRequestBody = maxRequestBody;
	}

	public FallbackProperties getFallback() {
		return fallback;
	}

	public BudgetDefinitionsProperties getBudgetDefinitions() {
		return budgetDefinitions;
	}

	public OpenApiProperties getOpenapi() {
		return openapi;
	}

	public ConfigCheckProperties getConfigCheck() {
		return configCheck;
	}

	public MetricsProperties getMetrics() {
		return metrics;
	}

	public QuotaEndpointProperties getQuotaEndpoint() {
		return quotaEndpoint;
	}

	public GatewayProperties getGateway() {
		return gateway;
	}

}
