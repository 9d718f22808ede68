package dev.limiter.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names the observation of a decision ({@code limiter.decision}) and chooses its key
 * values. The default is {@link DefaultLimiterDecisionObservationConvention}; define a
 * bean of this type (usually extending the default) to replace it. The observations that
 * follow a decision ({@code limiter.store}, {@code limiter.settlement},
 * {@code limiter.lease.release}) share the context class: a
 * {@code GlobalObservationConvention} registered on the registry replaces theirs, telling
 * them apart by {@link LimiterDecisionContext#getKind()}. Keep low-cardinality key values
 * bounded: they become meter tags.
 */
public interface LimiterDecisionObservationConvention extends ObservationConvention<LimiterDecisionContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LimiterDecisionContext;
	}

}
