package dev.limiter.redis;

import dev.limiter.core.Budget;
import dev.limiter.core.Window;

import java.util.ArrayList;
import java.util.List;

/**
 * Names of the Redis keys of one (budget, key): {@code <prefix>:{<budget>:<key>}:w:<window>:<millis>} per
 * window and {@code <prefix>:{<budget>:<key>}:leases}. The braces are a Cluster hash tag, so every key one
 * script touches hashes to one slot. The window's length is part of its name, so a window re-declared with
 * another length starts afresh instead of reading counts kept for a different window.
 */
final class RedisKeys {

    /** Braces in the prefix would move the Cluster hash tag away from (budget, key). */
    static final String PREFIX_RULE = "must be non-empty and contain no '{' or '}'";

    private final String prefix;

    RedisKeys(String prefix) {
        if (prefix == null || prefix.isEmpty() || prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException(PREFIX_RULE + ", was '" + prefix + "'");
        }
        this.prefix = prefix;
    }

    String prefix() {
        return prefix;
    }

    /** Every key of (budget, key): the windows in declaration order, then the leases. */
    List<String> all(Budget budget, String key) {
        String tagged = tagged(budget.name(), key);
        List<Window> windows = budget.windows();
        List<String> keys = new ArrayList<>(windows.size() + 1);
        for (Window window : windows) {
            keys.add(tagged + ":w:" + window.name() + ":" + window.durationMillis());
        }
        keys.add(tagged + ":leases");
        return keys;
    }

    String leases(String budget, String key) {
        return tagged(budget, key) + ":leases";
    }

    private String tagged(String budget, String key) {
        return prefix + ":{" + budget + ":" + key + "}";
    }
}
