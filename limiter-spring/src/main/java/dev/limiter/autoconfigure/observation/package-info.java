/**
 * Spring Boot wiring, one concern: the Observation of each decision.
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.observation;
