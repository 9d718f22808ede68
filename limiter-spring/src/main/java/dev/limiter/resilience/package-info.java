/**
 * What stands between the request path and a failing store: the circuit breaker around
 * the stores (Resilience4j) and the logging of an outage's start and end.
 *
 * <p>
 * Internal: configured through {@code resilience4j.circuitbreaker.instances.limiter.*}
 * and the budgets' {@code on-store-failure}; what happens in an outage is specified in
 * {@code docs/}.
 */
package dev.limiter.resilience;
