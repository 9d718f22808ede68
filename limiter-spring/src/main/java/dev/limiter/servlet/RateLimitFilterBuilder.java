package dev.limiter.servlet;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.limiter.core.LeaseRenewer;
import dev.limiter.core.RateLimitStore;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.web.CorsHeaders;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The one way to make a {@link RateLimitFilter}: the rules, the store, the key resolver
 * and the response writer are required; everything else has a default (the system clock,
 * no selectors, no run-time definitions, no observers, no lease renewal, no CORS
 * configuration of the application's).
 */
public final class RateLimitFilterBuilder {

	final Supplier<RateLimitRules> rules;

	final RateLimitStore store;

	final KeyResolver keyResolver;

	final RateLimitResponseWriter responseWriter;

	Clock clock = Clock.systemUTC();

	List<BudgetSelector> budgetSelectors = List.of();

	BudgetDefinitions<HttpServletRequest> definitions = BudgetDefinitions.none();

	List<RateLimitObserver> observers = List.of();

	LeaseRenewer leaseRenewer;

	CorsHeaders cors = CorsHeaders.NONE;

	RateLimitFilterBuilder(Supplier<RateLimitRules> rules, RateLimitStore store, KeyResolver keyResolver,
			RateLimitResponseWriter responseWriter) {
		this.rules = Objects.requireNonNull(rules, "rules");
		this.store = Objects.requireNonNull(store, "store");
		this.keyResolver = Objects.requireNonNull(keyResolver, "keyResolver");
		this.responseWriter = Objects.requireNonNull(responseWriter, "responseWriter");
	}

	public RateLimitFilterBuilder clock(Clock clock) {
		this.clock = Objects.requireNonNull(clock, "clock");
		return this;
	}

	/** Asked in order for an authenticated caller's budget. */
	public RateLimitFilterBuilder budgetSelectors(List<BudgetSelector> budgetSelectors) {
		this.budgetSelectors = List.copyOf(budgetSelectors);
		return this;
	}

	/**
	 * The budgets the application defines at run time
	 * ({@link ServletBudgetSelectors#definitions}).
	 */
	public RateLimitFilterBuilder definitions(BudgetDefinitions<HttpServletRequest> definitions) {
		this.definitions = Objects.requireNonNull(definitions, "definitions");
		return this;
	}

	public RateLimitFilterBuilder observers(List<RateLimitObserver> observers) {
		this.observers = List.copyOf(observers);
		return this;
	}

	/** Renews the leases of requests in flight; {@code null} for none. */
	public RateLimitFilterBuilder leaseRenewer(LeaseRenewer leaseRenewer) {
		this.leaseRenewer = leaseRenewer;
		return this;
	}

	/**
	 * The CORS headers the application gives a request, added to the limiter's own 429
	 * and 503 so that a browser on another origin can read them.
	 */
	public RateLimitFilterBuilder cors(CorsHeaders cors) {
		this.cors = Objects.requireNonNull(cors, "cors");
		return this;
	}

	public RateLimitFilter build() {
		return new RateLimitFilter(this);
	}

}
