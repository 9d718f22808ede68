/**
 * The Lettuce customizer (Cluster topology refresh by default) registered on Spring Boot
 * 3's Redis types (the Boot 4 starter's twin is {@code dev.limiter.boot4.redis}).
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}; the former name
 * {@code dev.limiter.autoconfigure.redis.LimiterLettuceAutoConfiguration} is replaced by
 * it through {@code AutoConfiguration.replacements}); the rest is internal.
 */
package dev.limiter.boot3.redis;
