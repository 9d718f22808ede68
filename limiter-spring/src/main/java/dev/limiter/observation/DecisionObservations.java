package dev.limiter.observation;

import dev.limiter.core.Budget;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The Micrometer {@link Observation}s of the limiter's decisions, whichever web stack
 * carries the request: {@code limiter.decision} per decision (and per exempt request),
 * its children. The servlet filter reaches it through {@link ObservedDecisions}, the
 * reactive one directly, handing it the request's observation from the Reactor context.
 * Nothing is made while the registry is a no-op; a failing convention or handler never
 * fails the request.
 */
public final class DecisionObservations {

	private static final Log logger = LogFactory.getLog(DecisionObservations.class);

	private final ObservationRegistry registry;

	private final LimiterDecisionObservationConvention convention;

	/**
	 * @param registry where the observations go
	 * @param convention the application's convention, {@code null} for the default
	 */
	public DecisionObservations(ObservationRegistry registry, LimiterDecisionObservationConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	/**
	 * A decision's observation, started.
	 * @param parent the request's observation; {@code null}: the registry's current one
	 * @param key the caller's key in the budget as the endpoint's lookup takes it
	 * @param store the store's name: a store other than {@code memory} is another
	 * process, whose call gets its own child observation
	 * @return {@code null} when nothing observes (a no-op registry, a failing start)
	 */
	public ObservedDecision start(RoutePolicy route, Budget budget, String key, String store, Observation parent) {
		if (registry.isNoop()) {
			return null;
		}
		LimiterDecisionContext context = new LimiterDecisionContext(LimiterDecisionContext.Kind.DECISION, route, budget,
				budget.name(), key, store);
		try {
			Observation observation = parented(observation(context), parent).start();
			return new ObservedDecision(this, observation, context, !"memory".equals(store));
		}
		catch (RuntimeException ex) {
			failed(ex);
			return null;
		}
	}

	/**
	 * An exempt request's observation, started and stopped.
	 * @param parent the request's observation; {@code null}: the registry's current one
	 */
	public void exempt(RoutePolicy route, Observation parent) {
		if (registry.isNoop()) {
			return;
		}
		try {
			parented(observation(LimiterDecisionContext.exempt(route)), parent).start().stop();
		}
		catch (RuntimeException ex) {
			failed(ex);
		}
	}

	private static Observation parented(Observation observation, Observation parent) {
		return (parent != null) ? observation.parentObservation(parent) : observation;
	}

	Observation observation(LimiterDecisionContext context) {
		LimiterDecisionContext.Kind kind = context.getKind();
		return Observation.createNotStarted((kind == LimiterDecisionContext.Kind.DECISION) ? convention : null,
				DefaultLimiterDecisionObservationConvention.of(kind), () -> context, registry);
	}

	static void failed(RuntimeException ex) {
		logger.warn("The limiter's observation failed; the request goes on unobserved: " + ex);
	}

}
