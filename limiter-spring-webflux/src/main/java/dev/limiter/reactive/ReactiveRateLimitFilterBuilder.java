package dev.limiter.reactive;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.limiter.core.LeaseRenewer;
import dev.limiter.core.RateLimitStore;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.decision.CallerRefusals;
import dev.limiter.decision.DecisionResponses;
import dev.limiter.observation.DecisionObservations;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitRules;

import org.springframework.web.server.ServerWebExchange;

/**
 * The one way to make a {@link ReactiveRateLimitFilter}: the rules, the store, the key
 * and route resolvers are required; everything else has a default (the system clock, both
 * header styles, no budget selectors, no run-time definitions, no observers, no lease
 * renewal, right after Spring Security).
 */
public final class ReactiveRateLimitFilterBuilder {

	final Supplier<RateLimitRules> rules;

	final RateLimitStore store;

	final ReactiveKeyResolver keyResolver;

	final ReactiveRouteResolver routeResolver;

	Clock clock = Clock.systemUTC();

	DecisionResponses responses = new DecisionResponses(true, true);

	List<RateLimitObserver> observers = List.of();

	List<ReactiveBudgetSelector> budgetSelectors = List.of();

	BudgetDefinitions<ServerWebExchange> definitions = BudgetDefinitions.none();

	List<ReactiveCountedFurtherOn> countedFurtherOn = List.of();

	List<CallerRefusals> callerRefusals = List.of();

	LeaseRenewer leaseRenewer;

	DecisionObservations observations;

	ReactiveLimiterCors cors = ReactiveLimiterCors.NONE;

	int order = ReactiveRateLimitFilter.ORDER_AFTER_SECURITY;

	ReactiveRateLimitFilterBuilder(Supplier<RateLimitRules> rules, RateLimitStore store,
			ReactiveKeyResolver keyResolver, ReactiveRouteResolver routeResolver) {
		this.rules = Objects.requireNonNull(rules, "rules");
		this.store = Objects.requireNonNull(store, "store");
		this.keyResolver = Objects.requireNonNull(keyResolver, "keyResolver");
		this.routeResolver = Objects.requireNonNull(routeResolver, "routeResolver");
	}

	public ReactiveRateLimitFilterBuilder clock(Clock clock) {
		this.clock = Objects.requireNonNull(clock, "clock");
		return this;
	}

	/** The headers and bodies the filter writes ({@code limiter.headers.*}). */
	public ReactiveRateLimitFilterBuilder responses(DecisionResponses responses) {
		this.responses = Objects.requireNonNull(responses, "responses");
		return this;
	}

	/** Asked in order for an authenticated caller's budget. */
	public ReactiveRateLimitFilterBuilder budgetSelectors(List<ReactiveBudgetSelector> budgetSelectors) {
		this.budgetSelectors = List.copyOf(budgetSelectors);
		return this;
	}

	/**
	 * The budgets the application defines at run time
	 * ({@link ReactiveBudgetSelectors#definitions}), asked once every selector kept the
	 * route's budget.
	 */
	public ReactiveRateLimitFilterBuilder definitions(BudgetDefinitions<ServerWebExchange> definitions) {
		this.definitions = Objects.requireNonNull(definitions, "definitions");
		return this;
	}

	/**
	 * Asked first, in order: a request one of them says is counted further on is left to
	 * that filter, so that it is counted once.
	 */
	public ReactiveRateLimitFilterBuilder countedFurtherOn(List<ReactiveCountedFurtherOn> countedFurtherOn) {
		this.countedFurtherOn = List.copyOf(countedFurtherOn);
		return this;
	}

	public ReactiveRateLimitFilterBuilder observers(List<RateLimitObserver> observers) {
		this.observers = List.copyOf(observers);
		return this;
	}

	/**
	 * Told of each caller refused (the {@code limiter} endpoint's most-refused callers).
	 */
	public ReactiveRateLimitFilterBuilder callerRefusals(List<CallerRefusals> callerRefusals) {
		this.callerRefusals = List.copyOf(callerRefusals);
		return this;
	}

	/**
	 * The Observation of each decision ({@code limiter.decision}), parented to the
	 * request's observation in the Reactor context; {@code null} (the default) for none.
	 */
	public ReactiveRateLimitFilterBuilder observations(DecisionObservations observations) {
		this.observations = observations;
		return this;
	}

	/** Renews the leases of requests in flight; {@code null} for none. */
	public ReactiveRateLimitFilterBuilder leaseRenewer(LeaseRenewer leaseRenewer) {
		this.leaseRenewer = leaseRenewer;
		return this;
	}

	/**
	 * The CORS headers of the limiter's own 429 and 503, so that a browser on another
	 * origin can read them; by default only the limiter's headers exposed.
	 */
	public ReactiveRateLimitFilterBuilder cors(ReactiveLimiterCors cors) {
		this.cors = Objects.requireNonNull(cors, "cors");
		return this;
	}

	/** Where the filter runs among the application's {@code WebFilter}s. */
	public ReactiveRateLimitFilterBuilder order(int order) {
		this.order = order;
		return this;
	}

	public ReactiveRateLimitFilter build() {
		return new ReactiveRateLimitFilter(this);
	}

}
