package dev.limiter.reactive;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.decision.AdmissionEnds;
import dev.limiter.decision.BudgetChoice;
import dev.limiter.decision.CallerRefusals;
import dev.limiter.decision.EstimateCaps;
import dev.limiter.decision.RateLimitObservers;
import dev.limiter.decision.RouteScopedKeys;
import dev.limiter.decision.ShadowRefusalLog;
import dev.limiter.decision.StoreDecisions;
import dev.limiter.observation.ObservedDecision;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RateLimitUsage;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.web.ProblemResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import org.springframework.core.Ordered;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * The limiter on a reactive request: the servlet filter's decision (route → budget → key
 * → one store call, {@code takeAsync} or {@code reserveAsync}, never waited for on the
 * event loop), its 429 and 503 byte for byte, its counters just before the response
 * commits, shadow mode and exemptions. What an admitted request holds (a lease, renewed
 * while the response streams; units reserved) is handed back exactly once when the
 * response completes, fails or is cancelled (a client that disconnects).
 *
 * <p>
 * Runs after Spring Security's {@code WebFilterChainProxy} so that the
 * {@code Authentication} is in the Reactor context; a preflight is never counted.
 */
public final class ReactiveRateLimitFilter implements WebFilter, Ordered {

	/** Spring Security's {@code WebFilterChainProxy} order, plus ten. */
	public static final int ORDER_AFTER_SECURITY = -100 + 10;

	/**
	 * The exchange attribute holding the {@link Budget} an admitted request was counted
	 * against (a selector's, the anonymous one, the route's).
	 */
	public static final String BUDGET_ATTRIBUTE = ReactiveRateLimitFilter.class.getName() + ".budget";

	private static final Log logger = LogFactory.getLog(ReactiveRateLimitFilter.class);

	private final Supplier<RateLimitRules> rules;

	private final ReactiveKeyResolver keyResolver;

	private final ReactiveRouteResolver routeResolver;

	private final ReactiveResponses responses;

	private final RateLimitObservers observers;

	private final StoreDecisions decisions;

	private final AdmissionEnds admissionEnds;

	private final ShadowRefusalLog shadowLog = new ShadowRefusalLog(ReactiveRateLimitFilter.class);

	private final EstimateCaps estimateCaps = new EstimateCaps(logger);

	private final int order;

	private final BudgetChoice<ServerWebExchange> budgetChoice;

	private final List<ReactiveCountedFurtherOn> countedFurtherOn;

	private final List<CallerRefusals> callerRefusals;

	private final ReactiveLimiterCors cors;

	private final ReactiveDecisionObservations observations;

	ReactiveRateLimitFilter(ReactiveRateLimitFilterBuilder builder) {
		this.rules = builder.rules;
		this.keyResolver = builder.keyResolver;
		this.routeResolver = builder.routeResolver;
		this.responses = new ReactiveResponses(builder.responses);
		this.observers = new RateLimitObservers(builder.observers, ReactiveRateLimitFilter.class);
		this.decisions = new StoreDecisions(builder.store, builder.clock, ReactiveRateLimitFilter.class.getName());
		this.admissionEnds = new AdmissionEnds(builder.store, builder.clock, this.observers, builder.leaseRenewer,
				ReactiveRateLimitFilter.class);
		this.order = builder.order;
		this.budgetChoice = new BudgetChoice<>(ReactiveBudgetSelectors.of(builder.budgetSelectors), builder.definitions,
				ReactiveRateLimitFilter.class);
		this.countedFurtherOn = builder.countedFurtherOn;
		this.callerRefusals = builder.callerRefusals;
		this.cors = builder.cors;
		this.observations = (builder.observations != null)
				? new ReactiveDecisionObservations(builder.observations, builder.store.name())
				: ReactiveDecisionObservations.NONE;
	}

	/**
	 * A filter deciding by the rules in force, read once per request; the rest as
	 * {@link ReactiveRateLimitFilterBuilder} says.
	 */
	public static ReactiveRateLimitFilterBuilder builder(Supplier<RateLimitRules> rules, RateLimitStore store,
			ReactiveKeyResolver keyResolver, ReactiveRouteResolver routeResolver) {
		return new ReactiveRateLimitFilterBuilder(rules, store, keyResolver, routeResolver);
	}

	@Override
	public int getOrder() {
		return order;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (CorsUtils.isPreFlightRequest(exchange.getRequest())) {
			return chain.filter(exchange);
		}
		if (countedFurtherOn.isEmpty()) {
			return resolvedAndFiltered(exchange, chain);
		}
		if (countedFurtherOn.size() == 1) {
			// the usual case (a gateway's routes): no Flux to build per request
			return countedFurtherOn.get(0)
				.countedFurtherOn(exchange)
				.defaultIfEmpty(false)
				.flatMap((later) -> later ? chain.filter(exchange) : resolvedAndFiltered(exchange, chain));
		}
		return Flux.fromIterable(countedFurtherOn)
			.concatMap((claim) -> claim.countedFurtherOn(exchange))
			.any(Boolean::booleanValue)
			.flatMap((later) -> later ? chain.filter(exchange) : resolvedAndFiltered(exchange, chain));
	}

	private Mono<Void> resolvedAndFiltered(ServerWebExchange exchange, WebFilterChain chain) {
		return routeResolver.resolve(exchange)
			.defaultIfEmpty(RoutePolicy.DEFAULT)
			.flatMap((route) -> filter(exchange, route, chain));
	}

	/**
	 * Decides {@code exchange} on {@code route} as this filter decides the requests whose
	 * route it resolves itself, and runs {@code next} on an admission: for a filter that
	 * learns a request's route only after the {@code WebFilter}s ran (a gateway route's
	 * {@code Limiter} filter, which a {@link ReactiveCountedFurtherOn} keeps this filter
	 * from counting first).
	 */
	public Mono<Void> filter(ServerWebExchange exchange, RoutePolicy route, WebFilterChain next) {
		if (route.exempt()) {
			observers.exempt(route);
			ReactiveAuthGuardFilter.limiterDecided(exchange, true);
			return observations.any() ? Mono.deferContextual((context) -> {
				observations.exempt(route, context);
				return next.filter(exchange);
			}) : next.filter(exchange);
		}
		// One read: this request is decided by these rules even if a refresh swaps them.
		RateLimitRules rules = this.rules.get();
		return keyResolver.resolve(exchange)
			.switchIfEmpty(Mono.error(() -> new IllegalStateException(
					"ReactiveKeyResolver " + keyResolver.getClass().getName() + " answered no caller key")))
			.flatMap((caller) -> Mono
				.deferContextual((context) -> decide(exchange, next, rules, route, caller, context)));
	}

	private Mono<Void> decide(ServerWebExchange exchange, WebFilterChain chain, RateLimitRules rules, RoutePolicy route,
			CallerKey caller, ContextView context) {
		BudgetOptions options = rules.options();
		BudgetChoice.Chosen chosen = budgetChoice.choose(rules.budgets(), exchange, route, caller);
		Budget budget = chosen.budget();
		String counterKey = chosen.counterKey(RouteScopedKeys.counterKey(caller, route, options, budget.name()));
		long[] amounts = null;
		if (budget.hasUnits()) {
			amounts = budget.reservedAmounts(1, route.estimates());
			estimateCaps.check(route, budget);
		}
		long[] reserved = amounts;
		ObservedDecision observed = observations.start(route, budget, caller.value(options.keyBy(budget.name())),
				context);
		long started = System.nanoTime();
		CompletableFuture<Decision> call = ((observed != null)
				? observed
					.storeCallWithoutWaiting(() -> decisions.takeAsync(budget, counterKey, route.expensive(), reserved))
				: decisions.takeAsync(budget, counterKey, route.expensive(), reserved))
			.toCompletableFuture();
		AtomicBoolean delivered = new AtomicBoolean();
		return Mono.fromFuture(call, true)
			.doOnNext((decision) -> delivered.set(true))
			// a request cancelled while its decision travels hands back what it gets
			.doOnCancel(() -> {
				if (!delivered.get()) {
					if (observed != null) {
						observed.abandoned();
					}
					call.thenAccept((decision) -> handBack(budget, counterKey, decision, reserved));
				}
			})
			// a budget that fails closed while the store cannot answer: 503, the handler
			// not called
			.onErrorResume(StoreUnavailableException.class, (unavailable) -> {
				if (observed != null) {
					observed.unavailable(unavailable);
				}
				return refuse(exchange, responses.decisions().unavailable(unavailable)).then(Mono.<Decision>empty());
			})
			.doOnNext((decision) -> tellRefused(decision, options, budget, caller))
			.flatMap((decision) -> admitOrRefuse(exchange, chain, options, route, budget, counterKey, reserved,
					decision, System.nanoTime() - started, principalName(caller), observed));
	}

	private Mono<Void> admitOrRefuse(ServerWebExchange exchange, WebFilterChain chain, BudgetOptions options,
			RoutePolicy route, Budget budget, String counterKey, long[] amounts, Decision decision, long storeNanos,
			String principalName, ObservedDecision observed) {
		boolean shadowRefused = !decision.allowed() && options.shadow(budget.name());
		observers.decided(route, decision, shadowRefused, storeNanos);
		if (observed != null) {
			observed.decided(decision, shadowRefused);
		}
		if (!decision.allowed() && !shadowRefused) {
			return refuse(exchange, responses.decisions().refusal(decision));
		}
		ReactiveAuthGuardFilter.limiterDecided(exchange, true);
		if (shadowRefused) {
			shadowLog.refused(decision, route);
		}
		Reservation reservation = (amounts != null) ? Reservation.of(budget, counterKey, decision, amounts).orElse(null)
				: null;
		if (reservation != null) {
			observers.reserved(reservation);
		}
		exchange.getAttributes().put(BUDGET_ATTRIBUTE, budget);
		AdmissionEnds.End end = admissionEnds.of(budget, decision, reservation, observed,
				(usage) -> exchange.getAttributes().put(RateLimitUsage.ATTRIBUTE, usage), principalName);
		exchange.getResponse()
			.beforeCommit(() -> Mono.fromRunnable(() -> responses.writeCounters(exchange, decision, shadowRefused)));
		Mono<Void> handled = chain.filter(exchange);
		// complete, error or cancel: exactly once, and before the end is passed on (not
		// after, as doFinally would), so a caller's next request finds the units settled
		return (end != null) ? handled.doOnTerminate(end).doOnCancel(end) : handled;
	}

	/** The authenticated caller's principal's name, {@code null} for an anonymous one. */
	private static String principalName(CallerKey caller) {
		return (caller.authenticated()) ? caller.principal().getName() : null;
	}

	/** A refusal (never a shadow one) told to the {@link CallerRefusals}. */
	private void tellRefused(Decision decision, BudgetOptions options, Budget budget, CallerKey caller) {
		if (decision.allowed() || callerRefusals.isEmpty() || options.shadow(budget.name())) {
			return;
		}
		String key = caller.value(options.keyBy(budget.name()));
		String principal = (caller.principal() != null) ? caller.principal().getName() : null;
		for (CallerRefusals refusals : callerRefusals) {
			refusals.refused(key, budget.name(), principal);
		}
	}

	/**
	 * The limiter's own answer (a 429, or a 503 of a budget that fails closed), readable
	 * by a browser on another origin; the guard learns the request was refused.
	 */
	private Mono<Void> refuse(ServerWebExchange exchange, ProblemResponse problem) {
		ReactiveAuthGuardFilter.limiterDecided(exchange, false);
		return cors.write(exchange, problem);
	}

	/** What an admission the request no longer waits for holds goes back at once. */
	private void handBack(Budget budget, String counterKey, Decision decision, long[] amounts) {
		if (!decision.allowed()) {
			return;
		}
		Reservation reservation = (amounts != null) ? Reservation.of(budget, counterKey, decision, amounts).orElse(null)
				: null;
		AdmissionEnds.End end = admissionEnds.of(budget, decision, reservation, null, (usage) -> {
		}, null);
		if (end != null) {
			end.run();
		}
	}

}
