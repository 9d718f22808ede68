package dev.limiter.core;

import java.util.Objects;

/**
 * A concurrency slot held by one expensive request. Hand it back with {@link RateLimitStore#release}; if
 * nobody does, it expires by itself at {@code expiresAtMillis}.
 *
 * @param budget          the budget's name
 * @param key             the counter key the lease was taken under
 * @param id              unique among the leases of that key
 * @param expiresAtMillis when the lease frees itself, epoch milliseconds
 */
public record Lease(String budget, String key, String id, long expiresAtMillis) {

    public Lease {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(id, "id");
    }
}
