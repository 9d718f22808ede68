package dev.limiter.servlet;

import java.io.IOException;
import java.security.Principal;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RequestStoreTime;
import dev.limiter.core.Reservation;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.decision.AdmissionEnds;
import dev.limiter.decision.AfterResponseWork;
import dev.limiter.decision.BudgetChoice;
import dev.limiter.decision.EstimateCaps;
import dev.limiter.decision.RateLimitObservers;
import dev.limiter.decision.RouteScopedKeys;
import dev.limiter.decision.ShadowRefusalLog;
import dev.limiter.decision.StoreDecisions;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.web.CorsHeaders;
import dev.limiter.web.LimiterAdmission;
import dev.limiter.web.PendingVerdict;
import dev.limiter.web.RequestEnd;
import dev.limiter.web.UnreadBody;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.web.cors.CorsUtils;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Counts every request that is not exempt against its budget and key, refuses it with the
 * response writer's 429 when a bound is spent (the handler is not called), and otherwise
 * adds the counter headers just before the response commits unless the application marked
 * the response cacheable by a shared cache. An expensive request's lease is renewed while
 * it runs and handed back when it completes: synchronously, asynchronously or by an
 * exception.
 *
 * <p>
 * A budget in shadow mode is decided and counted the same way, but a refused request goes
 * on to the handler and its response says {@code X-RateLimit-Shadow: refused}. Every
 * decision is reported to the {@link dev.limiter.spring.RateLimitObserver}s (meters,
 * endpoint totals).
 */
public class RateLimitFilter extends OncePerRequestFilter {

	private static final Log logger = LogFactory.getLog(RateLimitFilter.class);

	private static final String RESPONSE_ATTRIBUTE = RateLimitFilter.class.getName() + ".RESPONSE";

	private final RateLimitStore store;

	private final KeyResolver keyResolver;

	/** Budgets, options and routes: read once per request, replaced by a refresh. */
	private final Supplier<RateLimitRules> rules;

	private final BudgetChoice<HttpServletRequest> budgetChoice;

	private final RateLimitResponseWriter responseWriter;

	private final CounterHeaders counterHeaders;

	private final RateLimitObservers observers;

	private final ShadowRefusalLog shadowLog = new ShadowRefusalLog(RateLimitFilter.class);

	private final StoreDecisions decisions;

	private final EstimateCaps estimateCaps = new EstimateCaps(logger);

	private final AdmissionEnds admissionEnds;

	private final CorsHeaders cors;

	/** Follows each request beside the observers; {@code null}: nothing follows them. */
	private DecisionInstrumentation instrumentation;

	/**
	 * A filter deciding by the rules in force, read once per request; the rest as
	 * {@link RateLimitFilterBuilder} says.
	 * @param rules the budgets, options and routes in force
	 */
	public static RateLimitFilterBuilder builder(Supplier<RateLimitRules> rules, RateLimitStore store,
			KeyResolver keyResolver, RateLimitResponseWriter responseWriter) {
		return new RateLimitFilterBuilder(rules, store, keyResolver, responseWriter);
	}

	/** A filter deciding by fixed rules. */
	public static RateLimitFilterBuilder builder(RateLimitRules rules, RateLimitStore store, KeyResolver keyResolver,
			RateLimitResponseWriter responseWriter) {
		Objects.requireNonNull(rules, "rules");
		return builder(() -> rules, store, keyResolver, responseWriter);
	}

	/**
	 * Follows each request with {@code instrumentations} (the Observation of each
	 * decision, the endpoint's most-refused callers); none by default.
	 */
	public void setDecisionInstrumentations(List<DecisionInstrumentation> instrumentations) {
		this.instrumentation = DecisionInstrumentation.of(instrumentations);
	}

	RateLimitFilter(RateLimitFilterBuilder builder) {
		this.store = builder.store;
		this.cors = builder.cors;
		this.keyResolver = builder.keyResolver;
		this.rules = builder.rules;
		this.budgetChoice = new BudgetChoice<>(ServletBudgetSelectors.of(builder.budgetSelectors), builder.definitions,
				RateLimitFilter.class);
		this.responseWriter = builder.responseWriter;
		this.counterHeaders = new CounterHeaders(builder.responseWriter);
		this.observers = new RateLimitObservers(builder.observers, RateLimitFilter.class);
		this.admissionEnds = new AdmissionEnds(builder.store, builder.clock, this.observers, builder.leaseRenewer,
				RateLimitFilter.class);
		this.decisions = new StoreDecisions(builder.store, builder.clock, RateLimitFilter.class.getName());
	}

	/**
	 * The async dispatch is not counted again, but it may be the one that commits the
	 * response.
	 */
	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

	/**
	 * A preflight is a browser asking whether it may send the request, which no handler
	 * serves: never counted, never refused.
	 */
	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return CorsUtils.isPreFlightRequest(request);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		// One store timeout for the whole request, shared with the authentication guard's
		// calls if it ran first.
		try (RequestStoreTime.Scope storeTime = RequestStoreTime.open()) {
			filter(request, response, chain);
		}
	}

	private void filter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (isAsyncDispatch(request)) {
			continueAsyncDispatch(request, response, chain);
			return;
		}
		// One read: this request is decided by these rules even if a refresh swaps them.
		RateLimitRules rules = this.rules.get();
		BudgetOptions options = rules.options();
		RoutePolicy route = rules.routes().resolve(request);
		if (route.exempt()) {
			observers.exempt(route);
			LimiterAdmission.decided(request, true);
			if (instrumentation != null) {
				instrumentation.exempt(request, route);
			}
			if (PendingVerdict.refused(request)) {
				return;
			}
			chain.doFilter(request, response);
			return;
		}
		CallerKey caller = keyResolver.resolve(request);
		BudgetChoice.Chosen chosen = budgetChoice.choose(rules.budgets(), request, route, caller);
		Budget budget = chosen.budget();
		Decision decision;
		long started = System.nanoTime();
		String counterKey = chosen.counterKey(RouteScopedKeys.counterKey(caller, route, options, budget.name()));
		// A budget in units reserves each unit's estimate with the request (ADR 0012),
		// capped at a window of a budget chosen at run time that holds less: bad
		// configuration, warned once, never a store failure.
		long[] amounts = null;
		if (budget.hasUnits()) {
			amounts = budget.reservedAmounts(1, route.estimates());
			estimateCaps.check(route, budget);
		}
		InstrumentedDecision followed = (instrumentation != null) ? instrumentation.start(new DecisionFacts(request,
				route, budget, caller.value(options.keyBy(budget.name())), caller.principal(), store.name())) : null;
		try {
			long[] reserved = amounts;
			decision = (followed != null)
					? followed.storeCall(() -> decisions.take(budget, counterKey, route.expensive(), reserved))
					: decisions.take(budget, counterKey, route.expensive(), amounts);
		}
		catch (StoreUnavailableException unavailable) {
			LimiterAdmission.decided(request, false);
			if (followed != null) {
				followed.unavailable(unavailable);
			}
			if (!PendingVerdict.refused(request)) {
				cors.applyTo(request, response);
				responseWriter.writeUnavailable(request, response, unavailable);
			}
			return;
		}
		boolean shadowRefused = !decision.allowed() && options.shadow(budget.name());
		observers.decided(route, decision, shadowRefused, System.nanoTime() - started);
		LimiterAdmission.decided(request, decision.allowed() || shadowRefused);
		if (followed != null) {
			followed.decided(decision, shadowRefused);
		}
		// A guard reservation sent before the lookup travelled with this decision: its
		// answer is in, or nearly, and a refusal there wins over the budget's.
		if (PendingVerdict.refused(request)) {
			decision.withLeaseIssuedBy(store).lease().ifPresent(admissionEnds::release);
			return;
		}
		if (!decision.allowed() && !shadowRefused) {
			cors.applyTo(request, response);
			responseWriter.writeRefusal(request, response, decision);
			return;
		}
		if (shadowRefused) {
			shadowLog.refused(decision, route);
		}
		Reservation reservation = (amounts != null) ? Reservation.of(budget, counterKey, decision, amounts).orElse(null)
				: null;
		if (reservation != null) {
			observers.reserved(reservation);
		}
		proceed(request, response, chain, budget, decision, shadowRefused, reservation, followed);
	}

	/**
	 * Runs the handler, adds the counters just before the response commits, and hands
	 * back at the end what the admission holds ({@link AdmissionEnds}).
	 */
	private void proceed(HttpServletRequest request, HttpServletResponse response, FilterChain chain, Budget budget,
			Decision decision, boolean shadowRefused, Reservation reservation, InstrumentedDecision followed)
			throws ServletException, IOException {
		AfterResponseWork work = (followed != null)
				? (kind, budgetName) -> followed.afterResponse(kind, budgetName)::done : null;
		Principal principal = (reservation != null) ? request.getUserPrincipal() : null;
		AdmissionEnds.End end = admissionEnds.of(budget, decision, reservation, work,
				(usage) -> ReservedUsage.hold(request, usage, budget),
				(principal != null) ? principal.getName() : null);
		RequestEnd release = (end != null) ? RequestEnd.of(end) : null;
		CommitHookResponseWrapper wrapped = new CommitHookResponseWrapper(response,
				() -> counterHeaders.write(request, response, decision, shadowRefused));
		request.setAttribute(RESPONSE_ATTRIBUTE, wrapped);
		try {
			chain.doFilter(request, wrapped);
		}
		finally {
			boolean async = false;
			try {
				async = request.isAsyncStarted();
				if (async && release != null) {
					request.getAsyncContext().addListener(release);
				}
				if (!async) {
					wrapped.runHookIfNotCommitted();
				}
			}
			finally {
				// the lease comes back even when the response writer throws while the
				// counters are written, and only once the body the handler left unread
				// has arrived: a trickled body holds its slot (ADR 0010)
				if (release != null && !async) {
					if (decision.lease().isPresent()) {
						UnreadBody.drain(request);
					}
					release.end(response.getStatus(), true);
				}
			}
		}
	}

	private void continueAsyncDispatch(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Object wrapped = request.getAttribute(RESPONSE_ATTRIBUTE);
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (wrapped instanceof CommitHookResponseWrapper hooked && !request.isAsyncStarted()) {
				hooked.runHookIfNotCommitted();
			}
		}
	}

}
