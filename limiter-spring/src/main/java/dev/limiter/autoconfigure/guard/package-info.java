/**
 * Spring Boot wiring, one concern: the authentication-failure guard's auto-configuration
 * (its filters, its store on memory or Redis).
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.guard;
