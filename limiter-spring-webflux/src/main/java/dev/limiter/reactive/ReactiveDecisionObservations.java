package dev.limiter.reactive;

import dev.limiter.core.Budget;
import dev.limiter.observation.DecisionObservations;
import dev.limiter.observation.ObservedDecision;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import reactor.util.context.ContextView;

/**
 * The Observation of each reactive decision ({@link DecisionObservations}, the servlet
 * filter's too), parented to the request's own observation: the one WebFlux's HTTP server
 * observation puts in the Reactor context (under
 * {@link ObservationThreadLocalAccessor#KEY}), which no thread-local carries on an event
 * loop. Observations start and stop without waiting for anything.
 */
final class ReactiveDecisionObservations {

	/** Observes nothing. */
	static final ReactiveDecisionObservations NONE = new ReactiveDecisionObservations(null, null);

	private final DecisionObservations observations;

	private final String store;

	/**
	 * @param observations {@code null} for none
	 * @param store the store's name
	 */
	ReactiveDecisionObservations(DecisionObservations observations, String store) {
		this.observations = observations;
		this.store = store;
	}

	/** A decision's observation, started; {@code null} when nothing observes. */
	ObservedDecision start(RoutePolicy route, Budget budget, String key, ContextView context) {
		return (observations != null) ? observations.start(route, budget, key, store, parent(context)) : null;
	}

	/** An exempt request's observation. */
	void exempt(RoutePolicy route, ContextView context) {
		if (observations != null) {
			observations.exempt(route, parent(context));
		}
	}

	boolean any() {
		return observations != null;
	}

	private static Observation parent(ContextView context) {
		Object current = context.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
		return (current instanceof Observation observation) ? observation : null;
	}

}
