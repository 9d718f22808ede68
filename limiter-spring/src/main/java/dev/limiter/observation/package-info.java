/**
 * The limiter's Micrometer Observations: one per decision ({@code limiter.decision}), the
 * store call it waited on, and the settlement and lease release after the response; named
 * and tagged by a replaceable {@link LimiterDecisionObservationConvention}.
 *
 * <p>
 * {@link dev.limiter.observation.DecisionObservations} and
 * {@link dev.limiter.observation.ObservedDecision} name no servlet type: the reactive
 * filter uses them directly; {@link dev.limiter.observation.ObservedDecisions} is the
 * servlet filter's instrumentation over them.
 */
package dev.limiter.observation;
