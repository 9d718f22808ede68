package dev.limiter.observation;

import java.util.function.Supplier;

import dev.limiter.core.Decision;
import dev.limiter.servlet.DecisionFacts;
import dev.limiter.servlet.DecisionInstrumentation;
import dev.limiter.servlet.InstrumentedDecision;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.http.HttpServletRequest;

/**
 * One Micrometer {@link Observation} per decision of the servlet filter
 * ({@code limiter.decision}), a child of the request's own observation (the HTTP
 * server's, when Spring's instrumentation runs): metrics through the registry's meter
 * handler, spans when Micrometer Tracing is there. What each observation carries is
 * {@link ObservedDecision}'s, shared with the reactive filter through
 * {@link DecisionObservations}; this is the servlet filter's
 * {@link DecisionInstrumentation} over them.
 */
public class ObservedDecisions implements DecisionInstrumentation {

	/**
	 * The event of a refusal (and of a shadow refusal): window and {@code Retry-After}.
	 */
	public static final String REFUSED_EVENT = ObservedDecision.REFUSED_EVENT;

	private final DecisionObservations observations;

	/**
	 * @param registry where the observations go
	 * @param convention the application's convention, {@code null} for the default
	 */
	public ObservedDecisions(ObservationRegistry registry, LimiterDecisionObservationConvention convention) {
		this(new DecisionObservations(registry, convention));
	}

	public ObservedDecisions(DecisionObservations observations) {
		this.observations = observations;
	}

	@Override
	public InstrumentedDecision start(DecisionFacts facts) {
		ObservedDecision observed = observations.start(facts.route(), facts.budget(), facts.key(), facts.store(), null);
		return (observed != null) ? new Observed(observed) : null;
	}

	@Override
	public void exempt(HttpServletRequest request, RoutePolicy route) {
		observations.exempt(route, null);
	}

	private record Observed(ObservedDecision observed) implements InstrumentedDecision {

		@Override
		public Decision storeCall(Supplier<Decision> call) {
			return observed.storeCall(call);
		}

		@Override
		public void decided(Decision decision, boolean shadowRefused) {
			observed.decided(decision, shadowRefused);
		}

		@Override
		public void unavailable(RuntimeException failure) {
			observed.unavailable(failure);
		}

		@Override
		public AfterResponse afterResponse(String kind, String budget) {
			return observed.begin(kind, budget)::done;
		}

	}

}
