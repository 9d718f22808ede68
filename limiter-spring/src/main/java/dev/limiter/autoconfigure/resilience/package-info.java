/**
 * Spring Boot wiring, one concern: the circuit breaker's auto-configuration and its
 * settings.
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.resilience;
