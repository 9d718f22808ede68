/**
 * The Redis store: {@link dev.limiter.redis.RedisRateLimitStore} and the guard's Redis
 * store, their scripts ({@code take.lua}, {@code guard.lua}) and the only code that knows
 * the scripts' argument layout, the key names, the Cluster topology-refresh rule.
 *
 * <p>
 * Internal: chosen with {@code limiter.store=redis}; the key layout is documented in
 * {@code docs/} for operators, the classes may change in any release.
 */
package dev.limiter.redis;
