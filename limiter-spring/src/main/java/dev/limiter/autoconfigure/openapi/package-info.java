/**
 * Spring Boot wiring, one concern: the OpenAPI customizer, when springdoc-openapi is on
 * the classpath and {@code limiter.openapi.enabled} is not {@code false}.
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.openapi;
