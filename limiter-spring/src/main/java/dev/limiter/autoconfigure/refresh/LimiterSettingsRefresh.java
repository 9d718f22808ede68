package dev.limiter.autoconfigure.refresh;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
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

	private final Clock clock;

	private volatile LimiterSettings settings;

	private volatile Attempt lastAttempt;

	/**
	 * @param settings the settings in force (those of start-up)
	 * @param routes how the route resolution and the inventory are rebuilt
	 */
	public LimiterSettingsRefresh(ConfigurableEnvironment environment, LimiterSettings settings,
			CurrentRateLimitRules rules, RouteRefresh routes) {
		this(environment, settings, rules, routes, Clock.systemUTC());
	}

	/**
	 * @param settings the settings in force (those of start-up)
	 * @param routes how the route resolution and the inventory are rebuilt
	 * @param clock when each attempt is dated
	 */
	public LimiterSettingsRefresh(ConfigurableEnvironment environment, LimiterSettings settings,
			CurrentRateLimitRules rules, RouteRefresh routes, Clock clock) {
		this.environment = environment;
		this.settings = settings;
		this.rules = rules;
		this.routes = routes;
		this.clock = clock;
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
	 * The last refresh attempted since start-up, applied or refused; empty before the
	 * first. What the {@code limiter} endpoint shows, since Spring Cloud's
	 * {@code /actuator/refresh} answers with the keys that changed whatever the limiter
	 * made of them.
	 */
	public Optional<Attempt> lastAttempt() {
		return Optional.ofNullable(lastAttempt);
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
		lastAttempt = new Attempt(clock.instant(), true, null, waiting);
		return true;
	}

	private LimiterProperties bind() {
		LimiterProperties properties = new LimiterProperties();
		Binder.get(environment).bind("limiter", Bindable.ofInstance(properties));
		return properties;
	}

	private void refused(String message) {
		logger.warn("Limiter configuration not refreshed, the settings in force stay: " + message);
		lastAttempt = new Attempt(clock.instant(), false, message, List.of());
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

	/**
	 * One refresh attempted.
	 *
	 * @param at when
	 * @param applied whether the new settings are in force; false: refused, the settings
	 * in force stayed
	 * @param reason why it was refused (start-up's message, naming the property);
	 * {@code null} when applied
	 * @param waitingForRestart the changed properties a refresh does not reach, which
	 * take effect at the next start
	 */
	public record Attempt(Instant at, boolean applied, String reason, List<String> waitingForRestart) {

		public Attempt {
			waitingForRestart = List.copyOf(waitingForRestart);
		}

	}

	private static void differs(List<String> changed, String property, Object before, Object after) {
		if (!Objects.equals(before, after)) {
			changed.add(property);
		}
	}

}
