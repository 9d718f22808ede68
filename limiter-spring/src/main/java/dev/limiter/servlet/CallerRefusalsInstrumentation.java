package dev.limiter.servlet;

import dev.limiter.core.Decision;
import dev.limiter.decision.CallerRefusals;

/**
 * Tells a {@link CallerRefusals} (the endpoint's most-refused callers) of each refusal
 * the servlet filter makes; a shadow refusal is not one. The reactive filter tells it
 * directly, so the {@code CallerRefusals} itself names no servlet type and the endpoint
 * runs on a WebFlux application without the Servlet API.
 */
public final class CallerRefusalsInstrumentation implements DecisionInstrumentation {

	private final CallerRefusals refusals;

	public CallerRefusalsInstrumentation(CallerRefusals refusals) {
		this.refusals = refusals;
	}

	@Override
	public InstrumentedDecision start(DecisionFacts facts) {
		return new InstrumentedDecision() {

			@Override
			public void decided(Decision decision, boolean shadowRefused) {
				if (!decision.allowed() && !shadowRefused) {
					String principal = (facts.principal() != null) ? facts.principal().getName() : null;
					refusals.refused(facts.key(), facts.budget().name(), principal);
				}
			}

		};
	}

}
