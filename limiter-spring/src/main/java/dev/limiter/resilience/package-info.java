/**
 * What happens when a store fails, in one place: the failure policy
 * ({@link dev.limiter.resilience.FailurePolicy}: the breaker, fail open on a fallback,
 * fail closed per budget, an uncounted admission), the one place that builds every store
 * stack and states its order ({@link dev.limiter.resilience.StoreStack}), the breaker
 * ({@link dev.limiter.resilience.StoreCircuitBreaker}) and the outage's one WARN and one
 * INFO ({@link dev.limiter.resilience.OutageLog}). Read {@code FailurePolicy} first to
 * know what a request gets when Redis times out.
 *
 * <p>
 * Internal: configured through {@code resilience4j.circuitbreaker.instances.limiter.*}
 * and the budgets' {@code on-store-failure}; what happens in an outage is specified in
 * {@code docs/}.
 */
package dev.limiter.resilience;
