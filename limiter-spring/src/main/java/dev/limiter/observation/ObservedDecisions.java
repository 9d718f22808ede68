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
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One Micrometer {@link Observation} per decision ({@code limiter.decision}), a child of
 * the request's own observation (the HTTP server's, when Spring's instrumentation runs):
 * metrics through the registry's meter handler, spans when Micrometer Tracing is there. A
 * refusal carries an event naming the refusing window and the {@code Retry-After}; the
 * wait on a store in another process is a child ({@code limiter.store}); the settlement
 * and the lease's release after the response ({@code limiter.settlement},
 * {@code limiter.lease.release}) are children of the observation the decision was made in
 * (captured at admission; the decision itself when there was none), so they sit in the
 * request's trace beside the decision. Nothing is made while the registry is a no-op.
 */
public class ObservedDecisions implements DecisionInstrumentation {

	/**
	 * The event of a refusal (and of a shadow refusal): window and {@code Retry-After}.
	 */
	public static final String REFUSED_EVENT = "limiter.refused";

	private static final Log logger = LogFactory.getLog(ObservedDecisions.class);

	private final ObservationRegistry registry;

	private final LimiterDecisionObservationConvention convention;

	/**
	 * @param registry where the observations go
	 * @param convention the application's convention, {@code null} for the default
	 */
	public ObservedDecisions(ObservationRegistry registry, LimiterDecisionObservationConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public InstrumentedDecision start(DecisionFacts facts) {
		if (registry.isNoop()) {
			return null;
		}
		LimiterDecisionContext context = LimiterDecisionContext.decision(facts);
		try {
			Observation observation = observation(context).start();
			return new Observed(observation, context, facts.remoteStore());
		}
		catch (RuntimeException ex) {
			// a failing convention or handler never fails the request
			failed(ex);
			return null;
		}
	}

	@Override
	public void exempt(HttpServletRequest request, RoutePolicy route) {
		if (registry.isNoop()) {
			return;
		}
		try {
			observation(LimiterDecisionContext.exempt(route)).start().stop();
		}
		catch (RuntimeException ex) {
			failed(ex);
		}
	}

	private Observation observation(LimiterDecisionContext context) {
		LimiterDecisionContext.Kind kind = context.getKind();
		return Observation.createNotStarted((kind == LimiterDecisionContext.Kind.DECISION) ? convention : null,
				DefaultLimiterDecisionObservationConvention.of(kind), () -> context, registry);
	}

	private static void failed(RuntimeException ex) {
		logger.warn("The limiter's observation failed; the request goes on unobserved: " + ex);
	}

	static LimiterDecisionContext.Outcome outcome(Decision decision, boolean shadowRefused) {
		if (!decision.allowed()) {
			return shadowRefused ? LimiterDecisionContext.Outcome.SHADOW_REFUSED
					: LimiterDecisionContext.Outcome.REFUSED;
		}
		return decision.degraded() ? LimiterDecisionContext.Outcome.DEGRADED : LimiterDecisionContext.Outcome.ADMITTED;
	}

	private final class Observed implements InstrumentedDecision {

		private final Observation observation;

		private final LimiterDecisionContext context;

		private final boolean remoteStore;

		Observed(Observation observation, LimiterDecisionContext context, boolean remoteStore) {
			this.observation = observation;
			this.context = context;
			this.remoteStore = remoteStore;
		}

		@Override
		public Decision storeCall(Supplier<Decision> call) {
			if (!remoteStore) {
				return call.get();
			}
			// in the decision's scope: a tracer parents the store's span on the
			// decision's
			try (Observation.Scope scope = observation.openScope()) {
				return child(LimiterDecisionContext.Kind.STORE, context.getBudgetName(), observation).observe(call);
			}
		}

		@Override
		public void decided(Decision decision, boolean shadowRefused) {
			context.decided(decision, outcome(decision, shadowRefused));
			try {
				decision.refusingBound()
					.ifPresent((bound) -> observation.event(Observation.Event.of(REFUSED_EVENT,
							REFUSED_EVENT + " window=" + bound.name() + " retry-after=" + decision.retryAfterSeconds()
									+ "s" + (shadowRefused ? " shadow" : ""))));
				observation.stop();
			}
			catch (RuntimeException ex) {
				failed(ex);
			}
		}

		@Override
		public void unavailable(RuntimeException failure) {
			context.failed(failure, LimiterDecisionContext.Outcome.UNAVAILABLE);
			observation.error(failure);
			observation.stop();
		}

		@Override
		public AfterResponse afterResponse(String kind, String budget) {
			// the decision has ended: its parent, the request's observation captured at
			// admission, is the parent, so the work sits in the request's trace (a tracer
			// parents on the current span unless it is the parent's)
			Observation parent = (context.getParentObservation() instanceof Observation request) ? request
					: observation;
			Observation after = child(InstrumentedDecision.SETTLEMENT.equals(kind)
					? LimiterDecisionContext.Kind.SETTLEMENT : LimiterDecisionContext.Kind.LEASE_RELEASE, budget,
					parent)
				.start();
			return (failure) -> {
				if (failure != null) {
					((LimiterDecisionContext) after.getContext()).failed(failure, null);
					after.error(failure);
				}
				after.stop();
			};
		}

		private Observation child(LimiterDecisionContext.Kind kind, String budget, Observation parent) {
			return observation(LimiterDecisionContext.following(kind, context, budget)).parentObservation(parent);
		}

	}

}
