package dev.limiter.autoconfigure;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

import dev.limiter.core.RateLimitStore;
import dev.limiter.quota.QuotaReport;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteSource;
import dev.limiter.spring.CurrentRateLimitRules;

/**
 * What the quota endpoint ({@code limiter.quota-endpoint.*}) is on every web stack: its
 * checked path and bound, its line in the route inventory (its own budget, source
 * {@code built-in}) and the report it answers. Each stack's filter answers it.
 */
public final class QuotaEndpointWiring {

	/** The property naming the endpoint's path; unset: no endpoint. */
	public static final String PATH_PROPERTY = "limiter.quota-endpoint.path";

	private final String path;

	private final int perMinute;

	private QuotaEndpointWiring(String path, int perMinute) {
		this.path = path;
		this.perMinute = perMinute;
	}

	/**
	 * The endpoint's settings, checked: a path that starts with {@code /}, a bound of at
	 * least one read a minute.
	 * @throws InvalidLimiterConfigurationException naming the property otherwise
	 */
	public static QuotaEndpointWiring of(LimiterProperties properties) {
		QuotaEndpointProperties quota = properties.getQuotaEndpoint();
		String path = quota.getPath().trim();
		if (!path.startsWith("/")) {
			throw new InvalidLimiterConfigurationException(PATH_PROPERTY, "must start with '/', was '" + path + "'");
		}
		if (quota.getLimit() < 1) {
			throw new InvalidLimiterConfigurationException("limiter.quota-endpoint.limit",
					"must be at least 1, was " + quota.getLimit());
		}
		return new QuotaEndpointWiring(path, quota.getLimit());
	}

	public String path() {
		return path;
	}

	/** How many times a minute one caller may read its quota. */
	public int perMinute() {
		return perMinute;
	}

	/** The endpoint's line in the route inventory, answered by {@code handler}. */
	public RouteInventory.Entry inventoryEntry(String handler) {
		return new RouteInventory.Entry(List.of("GET"), path, handler, QuotaReport.BUDGET_NAME, false, false,
				"a caller's own quota (" + PATH_PROPERTY + ")", RouteSource.BUILT_IN);
	}

	/**
	 * The report of a caller's counters under the rules in force, over the budgets the
	 * routes of {@code inventory} use (a supplier of {@code null}: the default budget
	 * only).
	 */
	public QuotaReport report(CurrentRateLimitRules rules, RateLimitStore store, Supplier<RouteInventory> inventory,
			Clock clock) {
		return new QuotaReport(rules, store, inventory, clock);
	}

}
