package dev.limiter.gateway.webflux;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.BudgetEstimates;
import dev.limiter.core.InvalidValueException;
import dev.limiter.decision.UsageReportHeader;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.support.HasRouteId;

/**
 * The {@code Limiter} route filter: {@code filters: - Limiter=<budget>}, or
 * {@code - name: Limiter} with {@code args: budget: <name>} (and {@code expensive: true}
 * for the budget's concurrency bound, {@code estimates.<unit>: <amount>} for what a call
 * reserves before its backend reports it). The request is decided before anything is
 * forwarded, by the application's {@link ReactiveRateLimitFilter}, keyed on the caller
 * the gateway's security established; the route's id is the policy's pattern. A budget
 * the rules do not know, or an estimate that does not fit it, fails the route's
 * definition with a message naming the route's filter.
 */
public final class LimiterGatewayFilterFactory
		extends AbstractGatewayFilterFactory<LimiterGatewayFilterFactory.Config> {

	/** The filter's name in route definitions. */
	public static final String NAME = "Limiter";

	private final ReactiveRateLimitFilter limiter;

	private final Supplier<RateLimitRules> rules;

	private final UsageReportHeader reportHeader;

	/**
	 * @param reportHeader the header a backend reports its usage in
	 * ({@code limiter.gateway.report-header}); {@code null}: none
	 */
	public LimiterGatewayFilterFactory(ReactiveRateLimitFilter limiter, Supplier<RateLimitRules> rules,
			UsageReportHeader reportHeader) {
		super(Config.class);
		this.limiter = Objects.requireNonNull(limiter, "limiter");
		this.rules = Objects.requireNonNull(rules, "rules");
		this.reportHeader = reportHeader;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public List<String> shortcutFieldOrder() {
		return List.of("budget");
	}

	@Override
	public GatewayFilter apply(Config config) {
		Budget budget = rules.get()
			.budgets()
			.find(config.getBudget())
			.orElseThrow(() -> new IllegalArgumentException(
					"The " + NAME + " filter names the unknown budget '" + config.getBudget() + "'; known budgets are "
							+ rules.get().budgets().all().stream().map(Budget::name).toList()));
		Map<String, Long> estimates = Map.copyOf(config.getEstimates());
		String badEstimate = RoutePolicy.checkEstimates(estimates);
		if (badEstimate != null) {
			throw new IllegalArgumentException("The " + NAME + " filter's estimates " + badEstimate);
		}
		estimates.forEach((unit, amount) -> {
			try {
				BudgetEstimates.check(budget, unit, amount);
			}
			catch (InvalidValueException ex) {
				throw new IllegalArgumentException("The " + NAME + " filter's estimate of '" + unit
						+ "' does not fit budget '" + budget.name() + "': " + ex.getMessage(), ex);
			}
		});
		return new LimiterGatewayFilter(limiter, config.getRouteId(), budget.name(), config.isExpensive(), estimates,
				reportHeader);
	}

	/**
	 * The {@code Limiter} filter's arguments; the gateway sets the route's id on those of
	 * a route in its configuration.
	 */
	public static class Config implements HasRouteId {

		/** The route the filter is on, when the gateway names it. */
		private String routeId;

		/** The budget the route's requests are counted against. */
		private String budget;

		/** Whether the route's requests hold the budget's concurrency bound. */
		private boolean expensive;

		/** What a request reserves per unit other than requests, settled when it ends. */
		private Map<String, Long> estimates = new LinkedHashMap<>();

		@Override
		public String getRouteId() {
			return routeId;
		}

		@Override
		public void setRouteId(String routeId) {
			this.routeId = routeId;
		}

		public String getBudget() {
			return budget;
		}

		public Config setBudget(String budget) {
			this.budget = budget;
			return this;
		}

		public boolean isExpensive() {
			return expensive;
		}

		public Config setExpensive(boolean expensive) {
			this.expensive = expensive;
			return this;
		}

		public Map<String, Long> getEstimates() {
			return estimates;
		}

		public Config setEstimates(Map<String, Long> estimates) {
			this.estimates = (estimates != null) ? estimates : new LinkedHashMap<>();
			return this;
		}

	}

}
