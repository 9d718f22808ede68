/**
 * Spring Boot wiring, one concern: route resolution's auto-configuration on Spring MVC
 * and the start-up inventory's failure analyzer.
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.routes;
