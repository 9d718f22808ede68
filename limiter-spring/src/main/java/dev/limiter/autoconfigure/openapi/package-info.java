/**
 * Spring Boot wiring, one concern: the OpenAPI customizer's auto-configuration, skipped
 * without springdoc on the class path.
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.openapi;
