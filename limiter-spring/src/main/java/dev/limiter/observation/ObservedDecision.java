package dev.limiter.observation;

import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.limiter.core.Decision;
import dev.limiter.decision.AfterResponseWork;
import io.micrometer.observation.Observation;

/**
 * One decision's observation ({@code limiter.decision}), from its store call to what the
 * request hands back after its response, on either web stack. A refusal carries an event
 * naming the refusing window and the {@code Retry-After}; the wait on a store in another
 * process is a child ({@code limiter.store}); the settlement and the lease's release
 * after the response are children of the observation the decision was made in (the
 * request's; the decision itself when there was none), so they sit in the request's trace
 * beside the decision.
 */
public final class ObservedDecision implements AfterResponseWork {

	/**
	 * The event of a refusal (and of a shadow refusal): window and {@code Retry-After}.
	 */
	public static final String REFUSED_EVENT = "limiter.refused";

	private final DecisionObservations observations;

	private final Observation observation;

	private final LimiterDecisionContext context;

	private final boolean remoteStore;

	ObservedDecision(DecisionObservations observations, Observation observation, LimiterDecisionContext context,
			boolean remoteStore) {
		this.observations = observations;
		this.observation = observation;
		this.context = context;
		this.remoteStore = remoteStore;
	}

	/** Makes the store call on the caller's thread, observed when the store is remote. */
	public Decision storeCall(Supplier<Decision> call) {
		if (!remoteStore) {
			return call.get();
		}
		// in the decision's scope: a tracer parents the store's span on the decision's
		try (Observation.Scope scope = observation.openScope()) {
			return child(LimiterDecisionContext.Kind.STORE, context.getBudgetName(), observation).observe(call);
		}
	}

	/**
	 * Sends the store call without waiting for it, observed until its answer arrives when
	 * the store is remote.
	 */
	public <T> CompletionStage<T> storeCallWithoutWaiting(Supplier<CompletionStage<T>> call) {
		if (!remoteStore) {
			return call.get();
		}
		Observation store;
		try {
			store = child(LimiterDecisionContext.Kind.STORE, context.getBudgetName(), observation).start();
		}
		catch (RuntimeException ex) {
			DecisionObservations.failed(ex);
			return call.get();
		}
		CompletionStage<T> sent;
		try {
			sent = call.get();
		}
		catch (RuntimeException ex) {
			store.error(ex);
			store.stop();
			throw ex;
		}
		return sent.whenComplete((answer, failure) -> {
			if (failure != null) {
				store.error(failure);
			}
			store.stop();
		});
	}

	/**
	 * The request's decision.
	 * @param shadowRefused whether shadow mode let a refusal through
	 */
	public void decided(Decision decision, boolean shadowRefused) {
		context.decided(decision, outcome(decision, shadowRefused));
		try {
			decision.refusingBound()
				.ifPresent((bound) -> observation.event(
						Observation.Event.of(REFUSED_EVENT, REFUSED_EVENT + " window=" + bound.name() + " retry-after="
								+ decision.retryAfterSeconds() + "s" + (shadowRefused ? " shadow" : ""))));
			observation.stop();
		}
		catch (RuntimeException ex) {
			DecisionObservations.failed(ex);
		}
	}

	/** The store could not decide and the request is answered 503. */
	public void unavailable(RuntimeException failure) {
		context.failed(failure, LimiterDecisionContext.Outcome.UNAVAILABLE);
		observation.error(failure);
		observation.stop();
	}

	/** The request went away before its decision arrived: the observation ends. */
	public void abandoned() {
		observation.stop();
	}

	/**
	 * Work this request's admission does after its response begins: a child of the
	 * request's observation captured at admission (a tracer parents on the current span
	 * unless it is the parent's).
	 */
	@Override
	public Done begin(String kind, String budget) {
		Observation parent = (context.getParentObservation() instanceof Observation request) ? request : observation;
		Observation after = child(AfterResponseWork.SETTLEMENT.equals(kind) ? LimiterDecisionContext.Kind.SETTLEMENT
				: LimiterDecisionContext.Kind.LEASE_RELEASE, budget, parent)
			.start();
		return (failure) -> {
			if (failure != null) {
				((LimiterDecisionContext) after.getContext()).failed(failure, null);
				after.error(failure);
			}
			after.stop();
		};
	}

	static LimiterDecisionContext.Outcome outcome(Decision decision, boolean shadowRefused) {
		if (!decision.allowed()) {
			return shadowRefused ? LimiterDecisionContext.Outcome.SHADOW_REFUSED
					: LimiterDecisionContext.Outcome.REFUSED;
		}
		return decision.degraded() ? LimiterDecisionContext.Outcome.DEGRADED : LimiterDecisionContext.Outcome.ADMITTED;
	}

	private Observation child(LimiterDecisionContext.Kind kind, String budget, Observation parent) {
		return observations.observation(LimiterDecisionContext.following(kind, context, budget))
			.parentObservation(parent);
	}

}
