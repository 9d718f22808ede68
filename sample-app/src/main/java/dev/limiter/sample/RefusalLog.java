package dev.limiter.sample;

import dev.limiter.observation.DefaultLimiterDecisionObservationConvention;
import dev.limiter.observation.LimiterDecisionContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * One INFO line per refusal, written from the limiter's own observation
 * ({@code limiter.decision}): with a tracing bridge on the class path, Spring Boot's log
 * pattern puts the request's trace id on it, the same trace the limiter's span is in.
 */
@Component
class RefusalLog implements ObservationHandler<LimiterDecisionContext> {

	private static final Logger logger = LoggerFactory.getLogger(RefusalLog.class);

	@Override
	public void onStop(LimiterDecisionContext context) {
		if (context.getOutcome() == LimiterDecisionContext.Outcome.REFUSED && context.getDecision() != null) {
			logger.atInfo()
				.addKeyValue("budget", context.getBudgetName())
				.addKeyValue("window",
						context.getLowCardinalityKeyValue(DefaultLimiterDecisionObservationConvention.WINDOW)
							.getValue())
				.addKeyValue("retryAfter", context.getDecision().retryAfterSeconds())
				.log("Refused {} on {}: window {} spent, Retry-After {} s", context.getBudgetName(),
						context.getRoute() != null ? context.getRoute().pattern() : null,
						context.getLowCardinalityKeyValue(DefaultLimiterDecisionObservationConvention.WINDOW)
							.getValue(),
						context.getDecision().retryAfterSeconds());
		}
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof LimiterDecisionContext limiter
				&& limiter.getKind() == LimiterDecisionContext.Kind.DECISION;
	}

}
