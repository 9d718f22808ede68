/**
 * The Lettuce customizer (Cluster topology refresh by default) registered on Boot 4's
 * moved Redis types, the twin of the Boot 3 starter's.
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.boot4.redis;
