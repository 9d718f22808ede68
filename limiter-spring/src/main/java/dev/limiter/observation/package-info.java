/**
 * The limiter's Micrometer Observations: one per decision ({@code limiter.decision}), the
 * store call it waited on, and the settlement and lease release after the response; named
 * and tagged by a replaceable {@link LimiterDecisionObservationConvention}.
 */
package dev.limiter.observation;
