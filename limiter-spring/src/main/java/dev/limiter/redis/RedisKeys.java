package dev.limiter.redis;

import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.InvalidValueException;
import dev.limiter.core.Window;

/**
 * Names of the Redis keys of one (budget, key): one hash
 * {@code <prefix>:{<budget>:<key>}:w} holding every window (fields
 * {@code <window>:<millis>:r}, its end, and {@code <window>:<millis>:c}, its count), and
 * the sorted set {@code <prefix>:{<budget>:<key>}:leases}. The braces are a Cluster hash
 * tag, so every key one script touches hashes to one slot. One hash for all windows keeps
 * a decision at three Redis commands (HMGET, HSET, PEXPIRE) whatever the number of
 * windows. The window's length is part of its field names, so a window re-declared with
 * another length starts afresh instead of reading counts kept for a different window.
 */
final class RedisKeys {

	/** Braces in the prefix would move the Cluster hash tag away from (budget, key). */
	static final String PREFIX_RULE = "must be non-empty and contain no '{' or '}'";

	private final String prefix;

	RedisKeys(String prefix) {
		if (prefix == null || prefix.isEmpty() || prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
			throw new InvalidValueException(RedisRateLimitStore.Field.KEY_PREFIX, "",
					PREFIX_RULE + ", was '" + prefix + "'");
		}
		this.prefix = prefix;
	}

	String prefix() {
		return prefix;
	}

	/** Every key of (budget, key): the windows' hash, then the leases. */
	List<String> all(Budget budget, String key) {
		String tagged = tagged(budget.name(), key);
		return List.of(tagged + ":w", tagged + ":leases");
	}

	/**
	 * Every key a slice of (budget, key) touches: {@link #all}, then the instances that
	 * took a slice of it recently (ADR 0014).
	 */
	List<String> slice(Budget budget, String key) {
		String tagged = tagged(budget.name(), key);
		return List.of(tagged + ":w", tagged + ":leases", tagged + ":slicers");
	}

	/** The windows' hash of (budget, key): what a settlement changes. */
	String windows(Budget budget, String key) {
		return tagged(budget.name(), key) + ":w";
	}

	/**
	 * The field of the windows' hash that holds {@code window}'s count; its end is the
	 * same name ending in r.
	 */
	static String countField(Window window) {
		return windowField(window) + ":c";
	}

	/**
	 * {@code window}'s field name in the windows' hash, as its algorithm's
	 * {@link WindowCodec#field} names it.
	 */
	static String windowField(Window window) {
		return WindowCodec.of(window).field(window);
	}

	String leases(String budget, String key) {
		return tagged(budget, key) + ":leases";
	}

	/**
	 * The authentication guard's keys of one address: lookups in flight, completed
	 * failures, the block and the proven credentials, all under the hash tag
	 * {@code {guard:<address>}} so that one script touches them on one Cluster slot.
	 */
	List<String> guard(String addressKey) {
		String tagged = prefix + ":{guard:" + addressKey + "}";
		return List.of(tagged + ":pending", tagged + ":failures", tagged + ":block", tagged + ":proven");
	}

	private String tagged(String budget, String key) {
		return prefix + ":{" + budget + ":" + key + "}";
	}

}
