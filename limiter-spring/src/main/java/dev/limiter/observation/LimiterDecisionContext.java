package dev.limiter.observation;

import java.util.Locale;
import java.util.Objects;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.observation.Observation;

/**
 * What one of the limiter's observations carries: a decision ({@code limiter.decision}),
 * the store call it waited on ({@code limiter.store}), or what the request handed back
 * after its response ({@code limiter.settlement}, {@code limiter.lease.release}). A
 * {@link LimiterDecisionObservationConvention} turns it into a name and key values.
 */
public class LimiterDecisionContext extends Observation.Context {

	/** Which of the limiter's observations this context belongs to. */
	public enum Kind {

		/** One request's decision: {@code limiter.decision}. */
		DECISION,

		/** The store call the decision waited on: {@code limiter.store}. */
		STORE,

		/** A reservation settled after the response: {@code limiter.settlement}. */
		SETTLEMENT,

		/**
		 * A concurrency lease handed back after the response:
		 * {@code limiter.lease.release}.
		 */
		LEASE_RELEASE

	}

	/** What the limiter did with a request. */
	public enum Outcome {

		/** Counted and admitted by the store's answer. */
		ADMITTED,

		/** Refused with a 429; the handler did not run. */
		REFUSED,

		/**
		 * Admitted while the store could not answer: the fallback decided, or nothing
		 * counted.
		 */
		DEGRADED,

		/** Would have been refused; shadow mode let it through. */
		SHADOW_REFUSED,

		/** Not counted: the route is exempt. */
		EXEMPT,

		/** Answered 503: the store could not answer and the budget fails closed. */
		UNAVAILABLE;

		private final String value = name().toLowerCase(Locale.ROOT).replace('_', '-');

		/** The key value: {@code admitted}, {@code shadow-refused}, ... */
		public String value() {
			return value;
		}

	}

	private final Kind kind;

	private final RoutePolicy route;

	private final Budget budget;

	private final String budgetName;

	private final String key;

	private final String store;

	private volatile Decision decision;

	private volatile Outcome outcome;

	private volatile Throwable failure;

	public LimiterDecisionContext(Kind kind, RoutePolicy route, Budget budget, String budgetName, String key,
			String store) {
		this.kind = Objects.requireNonNull(kind, "kind");
		this.route = route;
		this.budget = budget;
		this.budgetName = budgetName;
		this.key = key;
		this.store = store;
	}

	/** The context of an exempt request, decided without a budget or a store. */
	public static LimiterDecisionContext exempt(RoutePolicy route) {
		LimiterDecisionContext context = new LimiterDecisionContext(Kind.DECISION, route, null, null, null, null);
		context.outcome = Outcome.EXEMPT;
		return context;
	}

	/** A context of {@code kind} about the same request as {@code decision}. */
	public static LimiterDecisionContext following(Kind kind, LimiterDecisionContext decision, String budgetName) {
		return new LimiterDecisionContext(kind, decision.route, decision.budget, budgetName, decision.key,
				decision.store);
	}

	public Kind getKind() {
		return kind;
	}

	/** The route policy that applied, {@code null} for the work after a response. */
	public RoutePolicy getRoute() {
		return route;
	}

	/** The budget, {@code null} for an exempt request. */
	public Budget getBudget() {
		return budget;
	}

	/** The budget's name, {@code null} for an exempt request. */
	public String getBudgetName() {
		return budgetName;
	}

	/**
	 * The caller's key in the budget as the {@code limiter} endpoint's key lookup takes
	 * it (a hash with its kind prefix, or {@code a:} + an address); never a token.
	 */
	public String getKey() {
		return key;
	}

	/** The store's name, {@code null} for an exempt request. */
	public String getStore() {
		return store;
	}

	/** The decision, once made; {@code null} before, and for an exempt request. */
	public Decision getDecision() {
		return decision;
	}

	/** What the limiter did with the request, once decided. */
	public Outcome getOutcome() {
		return outcome;
	}

	/** Why the work failed (the store call, a settlement, a release), if it did. */
	public Throwable getFailure() {
		return failure;
	}

	void decided(Decision decision, Outcome outcome) {
		this.decision = decision;
		this.outcome = outcome;
	}

	void failed(Throwable failure, Outcome outcome) {
		this.failure = failure;
		this.outcome = outcome;
	}

}
