/**
 * Spring Boot wiring, one concern: the Redis store's auto-configuration ({@code
 * limiter.store=redis}) and the Cluster topology-refresh default; the Boot 3 starter adds
 * the Lettuce customizer's registration to this package.
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.redis;
