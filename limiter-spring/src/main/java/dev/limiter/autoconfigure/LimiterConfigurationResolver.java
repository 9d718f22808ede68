package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.BudgetEstimates;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.InvalidValueException;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.decision.UsageReportHeader;
import dev.limiter.routes.PropertiesRouteResolver.RouteRule;
import dev.limiter.routes.RouteSource;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetScope;
import dev.limiter.spring.KeyBy;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.web.RateLimitHeader;

import org.springframework.util.StringUtils;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * Turns {@link LimiterProperties} into {@link LimiterSettings}, once. The core's
 * constructors and builders decide what is valid; this class only adds the property path
 * to what they reject, and rejects what binding alone leaves open (missing values,
 * unknown budget names, route patterns), each with an
 * {@link InvalidLimiterConfigurationException} that names the property.
 *
 * <p>
 * A core type names the value it rejects by a constant of its own {@code Field} enum
 * ({@link InvalidValueException#field()}); {@link FieldProperties} maps each constant to
 * its property, so no message is ever read: a reworded message cannot move an error to
 * another property.
 */
public final class LimiterConfigurationResolver {

	private LimiterConfigurationResolver() {
	}

	/**
	 * The settings every auto-configuration uses; throws
	 * {@link InvalidLimiterConfigurationException}.
	 */
	public static LimiterSettings resolve(LimiterProperties properties) {
		return resolve(properties, index -> RouteSource.RULE);
	}

	/**
	 * The settings every auto-configuration uses, each route rule labelled with the kind
	 * of property source it was written in; throws
	 * {@link InvalidLimiterConfigurationException}.
	 * @param ruleSources where {@code limiter.routes[i]} was written, by {@code i}
	 */
	public static LimiterSettings resolve(LimiterProperties properties, IntFunction<RouteSource> ruleSources) {
		StoreType store = required("store", properties.getStore());
		int memoryMaxKeys = atLeastOne("memory.max-keys", properties.getMemory().getMaxKeys());
		int fallbackMaxKeys = atLeastOne("fallback.max-keys", properties.getFallback().getMaxKeys());
		Duration redisTimeout = properties.getRedis().getTimeout();
		if (redisTimeout == null || redisTimeout.toMillis() < 1) {
			throw invalid("redis.timeout", "must be a positive duration such as 250ms, was " + redisTimeout);
		}
		if (!StringUtils.hasText(properties.getRedis().getKeyPrefix())) {
			throw invalid("redis.key-prefix", "must not be empty");
		}
		Map<String, BudgetProperties> effective = BudgetMerge.effectiveBudgets(properties);
		BudgetRegistry budgets = budgets(properties, effective);
		return new LimiterSettings(budgets, options(properties, effective),
				routes(properties, effective, budgets, ruleSources), store,
				required("headers", properties.getHeaders()), properties.getInventory().isStrict(), memoryMaxKeys,
				fallbackMaxKeys, failClosed(effective), properties.getRedis().getKeyPrefix(), redisTimeout,
				properties.getAuthGuard().isEnabled() ? Optional.of(authGuard(properties.getAuthGuard()))
						: Optional.empty(),
				maxRequestBody(properties),
				atLeastOne("budget-definitions.max-cached", properties.getBudgetDefinitions().getMaxCached()),
				properties.isCountStaticResources(), reportHeader(properties.getGateway().getReportHeader()));
	}

	/**
	 * An HTTP field name (RFC 9110's token), never one the limiter writes itself: a
	 * backend's report must not be mistaken for the limiter's own headers. Blank is
	 * unset, as an empty YAML value binds.
	 */
	private static Optional<String> reportHeader(String name) {
		if (!StringUtils.hasText(name)) {
			return Optional.empty();
		}
		if (!UsageReportHeader.isFieldName(name)) {
			throw invalid("gateway.report-header",
					"must be an HTTP header name such as X-Usage-Tokens, was '" + name + "'");
		}
		if (RateLimitHeader.names().stream().anyMatch(name::equalsIgnoreCase)) {
			throw invalid("gateway.report-header",
					"names '" + name + "', a header the limiter writes itself; use one such as X-Usage-Tokens");
		}
		return Optional.of(name);
	}

	private static OptionalLong maxRequestBody(LimiterProperties properties) {
		if (properties.getMaxRequestBody() == null) {
			return OptionalLong.empty();
		}
		if (properties.getMaxRequestBody().toBytes() < 0) {
			throw invalid("max-request-body", "must be a size such as 1MB, was " + properties.getMaxRequestBody());
		}
		return OptionalLong.of(properties.getMaxRequestBody().toBytes());
	}

	private static BudgetRegistry budgets(LimiterProperties properties, Map<String, BudgetProperties> effective) {
		List<Budget> budgets = new ArrayList<>();
		effective.forEach((name, budget) -> budgets.add(budget(name, budget)));
		requireBudget(effective, properties.getDefaultBudget(), "default-budget");
		requireBudget(effective, properties.getAnonymousBudget(), "anonymous-budget");
		return new BudgetRegistry(budgets, properties.getDefaultBudget(), properties.getAnonymousBudget());
	}

	private static BudgetOptions options(LimiterProperties properties, Map<String, BudgetProperties> effective) {
		Map<String, BudgetScope> scopes = new LinkedHashMap<>();
		Map<String, Boolean> shadows = new LinkedHashMap<>();
		Map<String, KeyBy> keyBys = new LinkedHashMap<>();
		effective.forEach((name, budget) -> {
			if (budget.getKeyBy() != null) {
				keyBys.put(name, budget.getKeyBy());
			}
			if (budget.getScope() != null) {
				scopes.put(name, budget.getScope());
			}
			if (budget.getShadow() != null) {
				shadows.put(name, budget.getShadow());
			}
		});
		if (properties.getMode() == null) {
			throw invalid("mode", "must be enforce or shadow");
		}
		if (properties.getKeyBy() == null) {
			throw invalid("key-by", "must be credential or principal");
		}
		return new BudgetOptions(properties.getMode() == Mode.SHADOW, scopes, shadows, properties.getKeyBy(), keyBys);
	}

	private static Set<String> failClosed(Map<String, BudgetProperties> effective) {
		Set<String> failClosed = new LinkedHashSet<>();
		effective.forEach((name, budget) -> {
			if (budget.getOnStoreFailure() == StoreFailureMode.CLOSED) {
				failClosed.add(name);
			}
		});
		return failClosed;
	}

	private static List<RouteRule> routes(LimiterProperties properties, Map<String, BudgetProperties> budgets,
			BudgetRegistry registry, IntFunction<RouteSource> ruleSources) {
		List<RouteRule> rules = new ArrayList<>();
		List<RouteProperties> routes = properties.getRoutes() == null ? List.of() : properties.getRoutes();
		for (int i = 0; i < routes.size(); i++) {
			rules.add(route("routes[" + i + "].", routes.get(i), budgets, registry, ruleSources.apply(i)));
		}
		return rules;
	}

	private static RouteRule route(String at, RouteProperties route, Map<String, BudgetProperties> budgets,
			BudgetRegistry registry, RouteSource source) {
		if (route == null || !StringUtils.hasText(route.getPattern())) {
			throw invalid(at + "pattern", "must be a path pattern such as /api/**");
		}
		try {
			PathPatternParser.defaultInstance.parse(route.getPattern());
		}
		catch (PatternParseException ex) {
			throw invalid(at + "pattern",
					"is not a valid Spring PathPattern ('" + route.getPattern() + "': " + ex.getMessage() + ")");
		}
		if (route.getBudget() != null && !budgets.containsKey(route.getBudget())) {
			throw invalid(at + "budget",
					"names the unknown budget '" + route.getBudget() + "'; known budgets are " + budgets.keySet());
		}
		if (route.isExempt() && !StringUtils.hasText(route.getReason())) {
			throw invalid(at + "reason", "must say why the exempt route '" + route.getPattern() + "' is not limited");
		}
		List<String> methods = route.getMethods() == null ? List.of() : route.getMethods();
		for (int m = 0; m < methods.size(); m++) {
			if (!StringUtils.hasText(methods.get(m)) || !methods.get(m).matches("[A-Za-z]+")) {
				throw invalid(at + "methods[" + m + "]", "must be an HTTP method name such as GET or POST");
			}
		}
		Map<String, Long> estimates = (route.getEstimates() == null) ? Map.of() : route.getEstimates();
		String badEstimate = RoutePolicy.checkEstimates(estimates);
		if (badEstimate != null) {
			throw invalid(at + "estimates", badEstimate);
		}
		if (!route.isExempt()) {
			// every estimate must name a unit the route's budget counts and fit its
			// windows: one that does not would refuse every request, or reserve nothing
			Budget budget = registry.find(route.getBudget()).orElseGet(registry::defaultBudget);
			estimates.forEach((unit, amount) -> core(at + "estimates." + unit, () -> {
				BudgetEstimates.check(budget, unit, amount);
				return null;
			}));
		}
		return new RouteRule(route.getPattern(), methods, new RoutePolicy(route.getPattern(), route.getBudget(),
				route.isExpensive(), route.isExempt(), route.getReason(), estimates), source);
	}

	private static void requireBudget(Map<String, BudgetProperties> budgets, String name, String property) {
		if (name == null || !budgets.containsKey(name)) {
			throw invalid(property, "names the unknown budget '" + name + "'; known budgets are " + budgets.keySet());
		}
	}

	private static Budget budget(String name, BudgetProperties properties) {
		String at = "budgets." + name;
		Budget.Builder builder = core(at, () -> Budget.builder(name));
		builder.countRefused(Boolean.TRUE.equals(properties.getCountRefused()));
		Map<String, WindowProperties> windows = properties.getWindows() == null ? Map.of() : properties.getWindows();
		windows.forEach(
				(window, values) -> builder.window(WindowResolution.window(at + ".windows." + window, window, values)));
		ConcurrencyProperties concurrency = properties.getConcurrency();
		if (concurrency != null) {
			String max = at + ".concurrency.max";
			String lease = at + ".concurrency.lease";
			builder
				.concurrency(core(at + ".concurrency", () -> new ConcurrencyBound(required(max, concurrency.getMax()),
						required(lease, concurrency.getLease()))));
		}
		SliceProperties slices = properties.getSlices();
		if (slices != null && slices.isEnabled()) {
			Budget unsliced = core(at, builder::build);
			long max = (slices.getMax() != null) ? slices.getMax() : SliceTerms.defaultMax(unsliced);
			builder
				.slices(core(at + ".slices", () -> new SliceTerms(max, required(at + ".slices.ttl", slices.getTtl()))));
		}
		return core(at, builder::build);
	}

	private static AuthGuardPolicy authGuard(AuthGuardProperties properties) {
		String at = "auth-guard";
		Duration window = required(at + ".window", properties.getWindow());
		Duration block = required(at + ".block", properties.getBlock());
		Duration remember = required(at + ".remember-authenticated", properties.getRememberAuthenticated());
		return core(at, () -> new AuthGuardPolicy(properties.getThreshold(), window, block, properties.getMaxPending(),
				AuthGuardPolicy.DEFAULT_LOOKUP_LEASE, remember));
	}

	/**
	 * Runs a core constructor or builder; what it rejects becomes an error naming the
	 * property (see {@link FieldProperties#invalid(String, InvalidValueException)}).
	 * @param at the property path of the value being built, without {@code limiter.}
	 * (such as {@code budgets.standard.windows.minute})
	 */
	private static <T> T core(String at, Supplier<T> constructor) {
		try {
			return constructor.get();
		}
		catch (InvalidValueException ex) {
			throw FieldProperties.invalid(at, ex);
		}
	}

	private static <T> T required(String property, T value) {
		if (value == null) {
			throw invalid(property, "must be set");
		}
		return value;
	}

	private static int atLeastOne(String property, int value) {
		if (value < 1) {
			throw invalid(property, "must be at least 1, was " + value);
		}
		return value;
	}

	private static InvalidLimiterConfigurationException invalid(String property, String reason) {
		return FieldProperties.invalid(property, reason);
	}

}
