/**
 * The limiter's one failure policy, whole: what happens when a store call fails, times
 * out or finds the circuit breaker open, for the limiter's store and the guard's alike.
 * Read {@link dev.limiter.resilience.FailurePolicy} first, top-down; then
 * {@link dev.limiter.resilience.StoreStack}, the one place that puts the policy around a
 * store, in a stated order.
 *
 * <p>
 * Internal: configured through {@code resilience4j.circuitbreaker.instances.limiter.*},
 * {@code limiter.fallback.max-keys} and the budgets' {@code on-store-failure}; what
 * happens in an outage is specified in {@code docs/operations.md} and ADR 0004.
 */
package dev.limiter.resilience;
