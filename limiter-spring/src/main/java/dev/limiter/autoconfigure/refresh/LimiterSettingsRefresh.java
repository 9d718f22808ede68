package dev.limiter.autoconfigure.refresh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterProperties;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.LimiterSettingsConfiguration;
import dev.limiter.spring.CurrentRateLimitRules;
import dev.limiter.spring.RateLimitRules;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Re-reads {@code limiter.*} after a configuration change, judges it exactly as start-up
 * does, and puts the new budgets, options and routes in force at once, as a whole; an
 * invalid change is refused with start-up's message, logged once, and the rules in force
 * stay. Counters are the store's and are not touched: a window whose name and length did
 * not change keeps its count under the new limit.
 *
 * <p>
 * Only what decides requests is refreshed; the store, its fallback, the guard, the
 * headers and the body bound are built once, and a change to them is logged as waiting
 * for the next start.
 */
public class LimiterSettingsRefresh {

	private static final Log logger = LogFactory.getLog(LimiterSettingsRefresh.class);

	private final ConfigurableEnvironment environment;

	private final CurrentRateLimitRules rules;

	private final RouteRefresh routes;

	private volatile LimiterSettings settings;

	/**
	 * @param settings the settings in force (those of start-up)
	 * @param routes how the route resolution and the inventory are rebuilt
	 */
	public LimiterSettingsRefresh(ConfigurableEnvironment environment, LimiterSettings settings,
			CurrentRateLimitRules rules, RouteRefresh routes) {
		this.environment = environment;
		this.settings = settings;
		this.rules = rules;
		this.routes = routes;
	}

	/** Whether any of these changed keys is one of the limiter's. */
	public static boolean touchesLimiter(Set<String> keys) {
		for (String key : keys) {
			String lower = key.toLowerCase(Locale.ROOT);
			if (lower.startsWith("limiter.") || lower.startsWith("limiter_") || lower.equals("limiter")) {
				return true;
			}
		}
		return false;
	}

	/** The settings in force. */
	public LimiterSettings settings() {
		return settings;
	}

	/**
	 * Re-reads the configuration and puts it in force.
	 * @return whether the new configuration is in force (false: refused, the old one
	 * stays)
	 */
	public synchronized boolean refresh() {
		LimiterSettings next;
		RouteRefresh.Prepared prepared;
		try {
			next = LimiterSettingsConfiguration.resolve(bind(), environment);
			prepared = routes.prepare(next, rules.get().routes());
		}
		catch (InvalidLimiterConfigurationException | BindException ex) {
			refused(ex.getMessage());
			return false;
		}
		catch (RuntimeException ex) {
			// a route inventory problem, or an application's resolver that failed
			refused(ex.getMessage());
			return false;
		}
		LimiterSettings previous = settings;
		rules.replace(new RateLimitRules(next.budgets(), next.options(), prepared.routes()));
		prepared.install().run();
		settings = next;
		logger.info("Limiter configuration refreshed: budgets "
				+ next.budgets().all().stream().map(budget -> budget.toString()).toList() + ", default '"
				+ next.budgets().defaultBudget().name() + "', anonymous '" + next.budgets().anonymousBudget().name()
				+ "'");
		List<String> waiting = restartOnly(previous, next);
		if (!waiting.isEmpty()) {
			logger.warn("Limiter configuration changed where a refresh does not reach; " + waiting
					+ " take effect at the next start");
		}
		return true;
	}

	private LimiterProperties bind() {
		LimiterProperties properties = new LimiterProperties();
		Binder.get(environment).bind("limiter", Bindable.ofInstance(properties));
		return properties;
	}

	private static void refused(String message) {
		logger.warn("Limiter configuration not refreshed, the settings in force stay: " + message);
	}

	private static List<String> restartOnly(LimiterSettings before, LimiterSettings after) {
		List<String> changed = new ArrayList<>();
		differs(changed, "limiter.store", before.store(), after.store());
		differs(changed, "limiter.headers", before.headers(), after.headers());
		differs(changed, "limiter.memory.max-keys", before.memoryMaxKeys(), after.memoryMaxKeys());
		differs(changed, "limiter.fallback.max-keys", before.fallbackMaxKeys(), after.fallbackMaxKeys());
		differs(changed, "limiter.budgets.*.on-store-failure", before.failClosedBudgets(), after.failClosedBudgets());
		differs(changed, "limiter.redis.key-prefix", before.redisKeyPrefix(), after.redisKeyPrefix());
		differs(changed, "limiter.redis.timeout", before.redisTimeout(), after.redisTimeout());
		differs(changed, "limiter.auth-guard", before.authGuard(), after.authGuard());
		differs(changed, "limiter.max-request-body", before.maxRequestBodyBytes(), after.maxRequestBodyBytes());
		return changed;
	}

	private static void differs(List<String> changed, String property, Object before, Object after) {
		if (!Objects.equals(before, after)) {
			changed.add(property);
		}
	}

}
