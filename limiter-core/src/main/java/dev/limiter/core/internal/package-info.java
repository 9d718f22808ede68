/**
 * The in-memory store and the fixed-window arithmetic every store follows (the Redis
 * script mirrors it).
 *
 * <p>
 * Internal: nothing here is API; use {@link dev.limiter.core.RateLimitStores} to get an
 * in-memory store.
 */
package dev.limiter.core.internal;
