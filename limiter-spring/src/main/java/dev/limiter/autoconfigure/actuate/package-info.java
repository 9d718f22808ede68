/**
 * Spring Boot wiring, one concern: the {@code @Endpoint} ({@code /actuator/limiter}) and
 * its auto-configuration; the Boot 3 starter adds the health contributor's
 * auto-configuration to this package.
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.actuate;
