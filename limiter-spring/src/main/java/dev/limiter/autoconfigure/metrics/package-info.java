/**
 * Spring Boot wiring, one concern: the Micrometer meters' auto-configuration.
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.metrics;
