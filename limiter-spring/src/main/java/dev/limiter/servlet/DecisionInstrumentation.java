package dev.limiter.servlet;

import java.util.List;

import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RoutePolicy;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Follows each request the {@link RateLimitFilter} handles, beside the
 * {@link RateLimitObserver}s, with what an observer is not told: the request and its
 * caller, the store call while it runs, and what the request hands back after its
 * response. The Micrometer Observation of each decision ({@code dev.limiter.observation})
 * and the endpoint's most-refused callers follow requests this way. A filter without one
 * makes nothing for it.
 */
public interface DecisionInstrumentation {

	/**
	 * A request is about to be decided, on the request thread.
	 * @return what follows this request, or {@code null} to follow nothing of it
	 */
	InstrumentedDecision start(DecisionFacts facts);

	/** A request was let through uncounted because its route is exempt. */
	default void exempt(HttpServletRequest request, RoutePolicy route) {
	}

	/**
	 * One instrumentation for all of {@code instrumentations}, in order; {@code null}
	 * when there are none.
	 */
	static DecisionInstrumentation of(List<DecisionInstrumentation> instrumentations) {
		if (instrumentations.isEmpty()) {
			return null;
		}
		return (instrumentations.size() == 1) ? instrumentations.get(0)
				: new DecisionInstrumentations(instrumentations);
	}

}
