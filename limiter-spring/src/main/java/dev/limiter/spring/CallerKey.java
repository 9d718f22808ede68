package dev.limiter.spring;

import java.security.Principal;
import java.util.Objects;

/**
 * Who a request is counted as.
 *
 * @param value         the counter key: a hash or an address with a kind prefix ({@code t:}, {@code p:},
 *                      {@code a:}); never a raw credential
 * @param authenticated whether the request passed authentication; unauthenticated callers are always counted
 *                      against the anonymous budget
 * @param principal     the authenticated principal, {@code null} when unauthenticated
 */
public record CallerKey(String value, boolean authenticated, Principal principal) {

    public CallerKey {
        Objects.requireNonNull(value, "value");
        if (authenticated && principal == null) {
            throw new IllegalArgumentException("an authenticated caller needs its principal");
        }
    }

    /** A caller without a credential, keyed on its address. */
    public static CallerKey anonymous(String value) {
        return new CallerKey(value, false, null);
    }

    public static CallerKey authenticated(String value, Principal principal) {
        return new CallerKey(value, true, principal);
    }

    @Override
    public String toString() {
        // The value is already a hash or an address; the principal is left out so its name never reaches a log.
        return "CallerKey[" + value + (authenticated ? ", authenticated" : ", anonymous") + "]";
    }
}
