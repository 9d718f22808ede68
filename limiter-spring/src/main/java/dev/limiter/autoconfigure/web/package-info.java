/**
 * Spring Boot wiring, one concern: the request-body bound's auto-configuration.
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.web;
